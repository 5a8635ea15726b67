/**
 * One axios instance per upstream server: no proxy (a proxy variable in the environment must not
 * reroute calls carrying credentials), no redirects (a redirect would resend them elsewhere), the
 * body raw (the client parses it and never `JSON.parse`s blindly), every status resolved (the
 * client maps it), and agents the client frees on close.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';

export interface UpstreamHttpOptions {
  /** The server's base URL; trailing slashes are dropped. */
  readonly baseURL: string;
  /** `text` (JSON and HTML answers) or `arraybuffer` (files too). */
  readonly responseType: 'text' | 'arraybuffer';
  /**
   * Keep-alive sockets, dropped after this many ms idle; absent: a new connection per call (a
   * socket the server is just closing would fail a call that must not be retried).
   */
  readonly keepAliveMs?: number;
  /** TLS of the https agent: a private CA, or (never by default) no verification. */
  readonly tls?: { readonly ca?: string | Buffer | undefined; readonly rejectUnauthorized?: boolean };
  /**
   * Why the service must not connect to an address a host name resolved to, or null when it may:
   * checked on every connection, so a name that resolves (or is re-pointed) to a refused address
   * fails before a byte is sent.
   */
  readonly refuseAddress?: (ip: string) => string | null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** `dns.lookup` for the agents, failing with EADDRNOTAVAIL-like `EREFUSEDADDRESS` for a refused address. */
function guardedLookup(refuse: (ip: string) => string | null) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const { address } of addresses) {
        const why = refuse(address);
        if (why === null) continue;
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${address}, which ${why}`);
        refused.code = 'EREFUSEDADDRESS';
        return callback(refused, []);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined)
        return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** The instance and the agents behind it. */
export interface UpstreamHttp {
  readonly http: AxiosInstance;
  /** Frees the agents' sockets. */
  close(): void;
}

/** The HTTP instance of one upstream server. */
export function createUpstreamHttp(o: UpstreamHttpOptions): UpstreamHttp {
  const keepAlive = o.keepAliveMs !== undefined;
  const socket = {
    ...(keepAlive ? { keepAlive, timeout: o.keepAliveMs } : { keepAlive }),
    ...(o.refuseAddress ? { lookup: guardedLookup(o.refuseAddress) } : {}),
  };
  const agents = {
    http: new http.Agent(socket),
    https: new https.Agent({
      ...socket,
      ...(o.tls?.ca !== undefined ? { ca: o.tls.ca } : {}),
      rejectUnauthorized: o.tls?.rejectUnauthorized ?? true,
    }),
  };
  const instance = axios.create({
    baseURL: o.baseURL.replace(/\/+$/, ''),
    proxy: false,
    maxRedirects: 0,
    httpAgent: agents.http,
    httpsAgent: agents.https,
    responseType: o.responseType,
    transformResponse: [(d: unknown) => d],
    validateStatus: () => true,
    headers: { Accept: 'application/json' },
  });
  return {
    http: instance,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** The response's Content-Type ('' when absent). */
export function contentType(res: AxiosResponse): string {
  const v: unknown = res.headers['content-type'];
  return typeof v === 'string' ? v : '';
}
