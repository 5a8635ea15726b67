/**
 * Helpers of the VPN tests: raw HTTP to the simulator as a browser would send it (cookies,
 * `Csrf-Token`), a log that keeps every line (debug included), and the serialization of a
 * thrown error in every form a logger or a response could show it.
 */
import { inspect } from 'node:util';
import type { Log } from '@fleet/engine';
import type { VpnSim } from '@fleet/vpn-sim';

export interface RawAnswer {
  status: number;
  type: string;
  text: string;
  body: unknown;
  setCookies: string[];
}

export interface RawOptions {
  cookie?: string;
  csrf?: string;
  body?: unknown;
  /** Raw body text instead of `body`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** One request to the simulator. */
export async function raw(sim: VpnSim, method: string, path: string, o: RawOptions = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.cookie !== undefined) headers.Cookie = o.cookie;
  if (o.csrf !== undefined) headers['Csrf-Token'] = o.csrf;
  const payload = o.text ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (payload !== undefined) headers['Content-Type'] = o.contentType ?? 'application/json';
  const res = await fetch(sim.url + path, { method, headers, body: payload });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (type.includes('json')) body = JSON.parse(text) as unknown;
  return { status: res.status, type, text, body, setCookies: res.headers.getSetCookie() };
}

/** `name=value` pairs of Set-Cookie lines, joined as a Cookie header. */
export function cookieHeader(setCookies: string[]): string {
  return setCookies.map((c) => c.split(';')[0] ?? '').join('; ');
}

export interface RawSession {
  cookie: string;
  csrf: string;
}

/** Logs in as the web console does: `POST /auth/session`, then `GET /state` for the CSRF token. */
export async function consoleLogin(sim: VpnSim, credentials = sim.credentials): Promise<RawSession> {
  const login = await raw(sim, 'POST', '/auth/session', { body: credentials });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  const cookie = cookieHeader(login.setCookies);
  const state = await raw(sim, 'GET', '/state', { cookie });
  const csrf = (state.body as { csrf_token: string }).csrf_token;
  return { cookie, csrf };
}

/** A Log keeping every line, debug included, as `<level> <message> <json>`. */
export function captureLog(): { log: Log; lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (o: object, m?: string) =>
    void lines.push(`${level} ${m ?? ''} ${JSON.stringify(o)}`);
  return {
    log: { info: keep('info'), warn: keep('warn'), error: keep('error'), debug: keep('debug') },
    lines,
  };
}

/** Every way an error could be shown: message, stack, own properties, util.inspect. */
export function serialize(err: unknown): string {
  if (!(err instanceof Error)) return inspect(err, { depth: 8 });
  const props = JSON.stringify(err, Object.getOwnPropertyNames(err));
  return [String(err), err.stack ?? '', props, inspect(err, { depth: 8, showHidden: true })].join('\n');
}

/** The session secrets the simulator handed out: cookie values and CSRF tokens. */
export function sessionSecrets(sim: VpnSim): string[] {
  return [...sim.state.sessions.keys(), ...sim.state.tokens.keys(), ...sim.state.csrf.keys()];
}
