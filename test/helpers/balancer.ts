/**
 * A round-robin HTTP load balancer on a loopback port, as the tests' stand-in for the one in
 * front of N API instances: every request (not every connection) goes to the next instance in
 * turn. An instance that refuses the connection (it is dead) is skipped and the request goes to
 * the next one, as a balancer's health check would; a request an instance took and then dropped
 * is a 502, never sent twice (it may have been written).
 */
import {
  createServer,
  request,
  Agent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** The balancer and what it did. */
export interface Balancer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The upstream URLs, in turn order (a test may replace one after a restart). */
  readonly upstreams: string[];
  /** Requests answered per upstream URL. */
  readonly served: Map<string, number>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

function headersOf(req: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** Reads the whole request body (tests send small ones), so that a refused connection can be retried. */
function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Starts a balancer over `upstreams`. */
export async function startBalancer(upstreams: readonly string[]): Promise<Balancer> {
  const list = [...upstreams];
  const served = new Map<string, number>();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let turn = 0;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tries: number): void => {
    const target = list[turn++ % list.length] ?? '';
    const headers = headersOf(req);
    if (body.length > 0 || req.headers['content-length'] !== undefined)
      headers['content-length'] = String(body.length);
    const up = request(`${target}${req.url ?? '/'}`, { method: req.method, headers, agent }, (upRes) => {
      served.set(target, (served.get(target) ?? 0) + 1);
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(upRes.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(upRes.statusCode ?? 502, out);
      upRes.pipe(res);
    });
    up.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && tries < list.length) return forward(req, res, body, tries + 1);
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ _status: 'ERR', _error: { code: 502, message: `balancer: ${err.message}` } }));
    });
    up.end(body);
  };
  const server: Server = createServer((req, res) => {
    bodyOf(req).then(
      (body) => forward(req, res, body, 1),
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    upstreams: list,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
