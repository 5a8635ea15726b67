/**
 * Checks of the server's answers at the trust boundary: each record is read field by field
 * into the typed shape (pritunl/handlers/org.py, pritunl/user/user.py, pritunl/handlers/server.py); an answer without the fields the client relies on
 * is a 502, not a crash further in. Unknown fields of newer servers are ignored.
 */
import type { VpnOrganization, VpnPortForward, VpnServer, VpnUser } from './types';

/** Thrown for an answer that does not have the expected shape; the client maps it to 502. */
export class ShapeError extends Error {}

type Obj = Record<string, unknown>;

function obj(value: unknown, what: string): Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ShapeError(`${what} is not an object`);
  return value as Obj;
}

function str(o: Obj, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new ShapeError(`${key} is not a string`);
  return v;
}

const strOrNull = (o: Obj, key: string): string | null => {
  const v = o[key];
  return typeof v === 'string' ? v : null;
};
const bool = (o: Obj, key: string): boolean => o[key] === true;
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
const stringsOrNull = (v: unknown): string[] | null => (Array.isArray(v) ? strings(v) : null);

/** A list answer. */
export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(`${what} is not a list`);
  return value;
}

/** `Organization.dict()`. */
export function parseOrganization(value: unknown): VpnOrganization {
  const o = obj(value, 'organization');
  const org: VpnOrganization = {
    id: str(o, 'id'),
    name: str(o, 'name'),
    auth_api: bool(o, 'auth_api'),
    auth_token: strOrNull(o, 'auth_token'),
    auth_secret: strOrNull(o, 'auth_secret'),
    user_count: typeof o.user_count === 'number' ? o.user_count : 0,
  };
  if ('expiration' in o) org.expiration = strOrNull(o, 'expiration');
  return org;
}

/** A port forward's value: the server keeps strings; a number is taken as its digits. */
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

function portForwarding(value: unknown): VpnPortForward[] {
  if (!Array.isArray(value)) return [];
  return value.map((p: unknown) => {
    const e = p !== null && typeof p === 'object' ? (p as Obj) : {};
    return { protocol: text(e.protocol), port: text(e.port), dport: text(e.dport) };
  });
}

/** `User.dict()`, with `network_links` when the answer is a read. */
export function parseUser(value: unknown): VpnUser {
  const o = obj(value, 'user');
  const user: VpnUser = {
    id: str(o, 'id'),
    organization: str(o, 'organization'),
    organization_name: typeof o.organization_name === 'string' ? o.organization_name : '',
    name: str(o, 'name'),
    email: strOrNull(o, 'email'),
    groups: strings(o.groups),
    pin: bool(o, 'pin'),
    type: str(o, 'type'),
    auth_type: typeof o.auth_type === 'string' ? o.auth_type : 'local',
    yubico_id: strOrNull(o, 'yubico_id'),
    otp_secret: typeof o.otp_secret === 'string' ? o.otp_secret : '',
    disabled: bool(o, 'disabled'),
    bypass_secondary: bool(o, 'bypass_secondary'),
    client_to_client: bool(o, 'client_to_client'),
    mac_addresses: stringsOrNull(o.mac_addresses),
    dns_servers: stringsOrNull(o.dns_servers),
    dns_suffix: strOrNull(o, 'dns_suffix'),
    port_forwarding: portForwarding(o.port_forwarding),
  };
  if (Array.isArray(o.network_links)) user.network_links = strings(o.network_links);
  if ('last_active' in o) user.last_active = typeof o.last_active === 'number' ? o.last_active : null;
  return user;
}

/** `Server.dict()`: the fields the client reads. */
export function parseServer(value: unknown): VpnServer {
  const o = obj(value, 'server');
  return {
    id: str(o, 'id'),
    name: str(o, 'name'),
    status: typeof o.status === 'string' ? o.status : 'unknown',
  };
}

/** The `users` list of a `?search=` answer. */
export function searchUsers(value: unknown): unknown[] {
  return list(obj(value, 'search answer').users, 'users');
}
