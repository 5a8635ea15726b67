/**
 * What goes over the wire, in the two layers of a real server (pritunl-web): Flask's answers
 * (`utils.jsonify`, the text/html `"<code>: <reason>"` pages of handlers/errors.py) and the
 * pritunl-web proxy's own (text `"<code> <msg>"`, gin's `404 page not found`, empty 400s
 * when a body does not bind to its Go struct). Also Pritunl's name filter and the Go struct
 * binding that gives Flask every known key, with zero values for the missing ones.
 */
import { hasChange } from './version';

/** A handler's answer, written by one function (`send` in app.ts). */
export interface SimResponse {
  status: number;
  body: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  cookies?: string[];
}

/** `utils.jsonify` (utils/json_helpers.py): JSON plus the no-cache headers. */
export function jsonify(data: unknown, status = 200): SimResponse {
  return {
    status,
    body: JSON.stringify(data),
    contentType: 'application/json',
    headers: { 'Cache-Control': 'no-cache, no-store, must-revalidate', Pragma: 'no-cache', Expires: '0' },
  };
}

/** `{"error", "error_msg"}` application errors (pritunl/handlers/, pritunl/utils/), extra keys kept (402's `otp_auth`). */
export function appError(
  status: number,
  body: { error: string; error_msg: string } & Record<string, unknown>,
): SimResponse {
  return jsonify(body, status);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `flask.abort(status)` rendered by handlers/errors.py: `"401: Unauthorized"` as text/html. */
export function abort(status: number): SimResponse {
  return {
    status,
    body: `${status}: ${REASONS[status] ?? 'Error'}`,
    contentType: 'text/html; charset=utf-8',
  };
}

/** pritunl-web's `request.AbortWithStatus(c, code, msg)`: text `"401 Missing token"` (pritunl/handlers/, pritunl/utils/). */
export function proxyAbort(status: number, message: string): SimResponse {
  return { status, body: `${status} ${message}`, contentType: 'text/plain; charset=utf-8' };
}

/** gin's answer for a route pritunl-web does not register (any other path or method). */
export const GIN_NOT_FOUND: SimResponse = {
  status: 404,
  body: '404 page not found',
  contentType: 'text/plain',
};

/** gin's `c.Bind` failure: 400 with an empty body (pritunl-web). */
export const BIND_ERROR: SimResponse = { status: 400, body: '' };

/**
 * `NAME_SAFE_CHARS` of pritunl/constants.py: `%`, backtick, `{` and `}` until 1.32.4278.45
 * (d3ed3ad02), not since.
 */
const NAME_SAFE_OLD = new Set([...'-=_@.:/!#$%&*+?^`{|}~']);
const NAME_SAFE = new Set([...'-=_@.:/!#$&*+?^|~']);
/** Python's `str.isalnum()`: Unicode letters (L*) and numbers (N*). */
const ALNUM = /^[\p{L}\p{N}]$/u;

/**
 * What `str()` of a JSON value gives in the server's Python for the scalars a client sends: the
 * string itself, a number's digits, `True`/`False`; anything else (absent, null, a list, an
 * object) is treated as no value.
 */
export function pyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return '';
}

/** Python's `int()` of a query value (spaces, a sign and underscores between digits allowed). */
export function pyInt(text: string): number | undefined {
  return /^\s*[+-]?\d+(_\d+)*\s*$/.test(text) ? Number(text.replace(/_/g, '').trim()) : undefined;
}

/**
 * `utils.filter_str` of the release `ctx` plays: keeps characters that are `isalnum()` or in
 * NAME_SAFE_CHARS; everything else, spaces included, is removed ("My Org" -> "MyOrg"). Falsy
 * input is returned as it is.
 */
export function filterStr(ctx: { readonly release: number }, value: string): string;
export function filterStr(ctx: { readonly release: number }, value: string | null): string | null;
export function filterStr(ctx: { readonly release: number }, value: string | null): string | null {
  if (!value) return value;
  const safe = hasChange(ctx.release, 'nameFilter') ? NAME_SAFE : NAME_SAFE_OLD;
  let out = '';
  for (const ch of value) if (ALNUM.test(ch) || safe.has(ch)) out += ch;
  return out;
}

/** Field kinds of pritunl-web's Go request structs (handlers/{auth,org,user}.go). */
export type GoKind = 'string' | 'bool' | 'strings' | 'any' | 'portfwd';
export type GoStruct = Readonly<Record<string, GoKind>>;

/** The structs of the routes the simulator serves. */
export const STRUCTS = {
  authSession: { username: 'string', password: 'string', yubico_key: 'string', otp_code: 'string' },
  orgPost: { name: 'string', auth_api: 'bool' },
  orgPut: { name: 'string', auth_api: 'bool', auth_token: 'bool', auth_secret: 'bool' },
  userPost: {
    name: 'string',
    email: 'string',
    auth_type: 'string',
    yubico_id: 'string',
    groups: 'strings',
    pin: 'string',
    disabled: 'bool',
    network_links: 'strings',
    bypass_secondary: 'bool',
    client_to_client: 'bool',
    mac_addresses: 'strings',
    dns_servers: 'strings',
    dns_suffix: 'string',
    port_forwarding: 'portfwd',
  },
  userPut: {
    name: 'string',
    email: 'string',
    auth_type: 'string',
    yubico_id: 'string',
    groups: 'strings',
    pin: 'any',
    disabled: 'bool',
    network_links: 'strings',
    bypass_secondary: 'bool',
    client_to_client: 'bool',
    mac_addresses: 'strings',
    dns_servers: 'strings',
    dns_suffix: 'string',
    port_forwarding: 'portfwd',
    send_key_email: 'bool',
  },
} as const satisfies Record<string, GoStruct>;

const ZERO: Record<GoKind, unknown> = { string: '', bool: false, strings: null, any: null, portfwd: null };

function decodeField(kind: GoKind, value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (value === null || value === undefined) return { ok: true, value: ZERO[kind] };
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : { ok: false };
    case 'bool':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false };
    case 'any':
      return { ok: true, value };
    case 'strings':
      if (!Array.isArray(value) || !value.every((v) => v === null || typeof v === 'string'))
        return { ok: false };
      return { ok: true, value: value.map((v: unknown) => (typeof v === 'string' ? v : '')) };
    case 'portfwd': {
      if (!Array.isArray(value)) return { ok: false };
      const out: Record<string, string>[] = [];
      for (const item of value as unknown[]) {
        if (item === null || typeof item !== 'object' || Array.isArray(item)) return { ok: false };
        const entry: Record<string, string> = {};
        for (const key of ['protocol', 'port', 'dport']) {
          const v = (item as Record<string, unknown>)[key];
          if (v !== undefined && v !== null && typeof v !== 'string') return { ok: false };
          entry[key] = typeof v === 'string' ? v : '';
        }
        out.push(entry);
      }
      return { ok: true, value: out };
    }
  }
}

/**
 * gin `c.Bind` into a Go struct then `json.Marshal` (request/request.go): a body that is not a
 * JSON object of the right field types fails (undefined -> 400 empty); otherwise every known
 * field is present, missing ones as Go zero values, unknown ones dropped (`cipher_type`).
 */
export function bindStruct(raw: Buffer, struct: GoStruct): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(struct)) {
    const decoded = decodeField(kind, (parsed as Record<string, unknown>)[field]);
    if (!decoded.ok) return undefined;
    out[field] = decoded.value;
  }
  return out;
}
