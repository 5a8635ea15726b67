/**
 * A fault proxy between the API and vpn-sim, for failures the simulator's own controls cannot aim
 * at one call: "the next DELETE /user/... answers 500" (before reaching the server: nothing done),
 * or "the next POST /organization is done, then answered 500" (after: done but reported failed,
 * as a Flask handler that raised after its insert). Everything else is passed through unchanged.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One injected failure. */
export interface FaultRule {
  readonly method: string;
  /** Matched against the path (query left out). */
  readonly path: RegExp;
  readonly status: number;
  /** `before`: answered without reaching the server; `after`: the server acts, its answer is replaced. */
  readonly when: 'before' | 'after';
  /** How many matching calls fail (default 1). */
  readonly times?: number;
  /**
   * With `after`: the server's answer is kept but its body rewritten (an answer in a shape the
   * client cannot read), with `status`; without it the answer is Flask's error page.
   */
  readonly rewrite?: (body: string) => string;
}

/** A running proxy. */
export interface FaultProxy {
  readonly url: string;
  fail(rule: FaultRule): void;
  /** Calls seen, as `METHOD /path` (query left out), in order. */
  readonly calls: string[];
  close(): Promise<void>;
}

/** Flask's error page for an abort or an unhandled exception (handlers/errors.py; pritunl/handlers/, pritunl/utils/). */
function flaskError(res: ServerResponse, status: number): void {
  const reason = status === 500 ? 'Internal Server Error' : 'Error';
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`${status}: ${reason}`);
}

/** Starts a proxy to `target` on a free loopback port. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const rules: (FaultRule & { left: number })[] = [];
  const calls: string[] = [];
  const to = new URL(target);
  const match = (req: IncomingMessage): (FaultRule & { left: number }) | undefined => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const rule = rules.find((r) => r.left > 0 && r.method === req.method && r.path.test(path));
    if (rule) rule.left -= 1;
    return rule;
  };
  const server: Server = createServer((req, res) => {
    calls.push(`${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`);
    const rule = match(req);
    if (rule?.when === 'before') {
      req.resume();
      flaskError(res, rule.status);
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (rule?.when === 'after' && rule.rewrite !== undefined) {
          const rewrite = rule.rewrite;
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            res.writeHead(rule.status, {
              'Content-Type': answer.headers['content-type'] ?? 'application/json',
            });
            res.end(rewrite(Buffer.concat(chunks).toString('utf8')));
          });
          return;
        }
        if (rule?.when === 'after') {
          answer.resume();
          flaskError(res, rule.status);
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    fail: (rule) => rules.push({ ...rule, left: rule.times ?? 1 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
