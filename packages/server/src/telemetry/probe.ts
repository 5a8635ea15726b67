/**
 * Whether a peer (the salt-api, a VPN server) accepts a TCP connection: the readiness answer's
 * "reachable". A connect, not a request: it needs no credentials, costs the peer nothing, and
 * tells a stopped or unroutable peer from a live one. Answers are kept a few seconds and shared by
 * concurrent callers, so a balancer polling readiness never becomes load on the peers.
 */
import { connect } from 'node:net';

/** How long a probe's answer is reused. */
const KEEP_MS = 5_000;
/** Longest wait for a connection. */
const TIMEOUT_MS = 2_000;

/** One probe's answer. */
export interface Probed {
  readonly reachable: boolean;
  /** When it was made (epoch ms). */
  readonly at: number;
}

/** The host and port an http(s) URL connects to; undefined for anything else. */
function endpoint(url: string): { host: string; port: number } | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}

/** One TCP connect to `url`'s host and port. */
function connects(url: string): Promise<boolean> {
  const target = endpoint(url);
  if (target === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect({ host: target.host, port: target.port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Probes by URL, each answer kept `KEEP_MS` and shared while in flight. */
export class Prober {
  private readonly kept = new Map<string, Probed>();
  private readonly running = new Map<string, Promise<Probed>>();

  /** Whether `url` accepts a connection now (or did within the last few seconds). */
  probe(url: string): Promise<Probed> {
    const kept = this.kept.get(url);
    if (kept !== undefined && Date.now() - kept.at < KEEP_MS) return Promise.resolve(kept);
    let run = this.running.get(url);
    if (run === undefined) {
      run = connects(url).then((reachable) => {
        const probed = { reachable, at: Date.now() };
        this.kept.set(url, probed);
        this.running.delete(url);
        return probed;
      });
      this.running.set(url, run);
    }
    return run;
  }
}
