/**
 * User routes (handlers/user.py; notes §3): POST answers an array, PUT applies every key it
 * receives (through pritunl-web that is every key, so omitted fields are reset), reads add
 * the console's extra fields, and ids are looked up without the organization, as the server
 * does (`org.get_user(id)` loads by `_id` alone and labels the user with the URL's org).
 */
import type { Call, SimContext } from './context';
import type { PortForward, SimOrg, SimUser } from './model';
import { argId } from './orgs';
import { searchUsers } from './search';
import { abort, appError, filterStr, jsonify, type SimResponse, pyText } from './wire';

/** AUTH_TYPES of constants.py. */
export const AUTH_TYPES = new Set([
  'local',
  'duo',
  'yubico',
  'azure',
  'azure_duo',
  'azure_yubico',
  'google',
  'google_duo',
  'google_yubico',
  'authzero',
  'authzero_duo',
  'authzero_yubico',
  'slack',
  'slack_duo',
  'slack_yubico',
  'saml',
  'saml_duo',
  'saml_yubico',
  'saml_okta',
  'saml_okta_duo',
  'saml_okta_yubico',
  'saml_onelogin',
  'saml_onelogin_duo',
  'saml_onelogin_yubico',
  'radius',
  'radius_duo',
  'plugin',
]);
/** `settings.user.pin_min_length`. */
const PIN_MIN_LENGTH = 6;
/** The 400 answers of the user handlers (codes and messages of constants.py). */
const ERRORS = {
  pinNotDigits: { error: 'pin_not_digits', error_msg: 'Pin must contain only digits.' },
  pinTooShort: { error: 'pin_too_short', error_msg: 'Pin is not long enough.' },
  pinBypassSecondary: {
    error: 'pin_bypass_secondary',
    error_msg: 'Cannot set pin with secondary authentication bypass enabled.',
  },
  yubikeyBypassSecondary: {
    error: 'yubikey_bypass_secondary',
    error_msg: 'Cannot set YubiKey with secondary authentication bypass enabled.',
  },
  networkLinkInvalid: {
    error: 'network_link_invalid',
    error_msg: 'Network link is not a valid network address.',
  },
} as const;
/** More users than this in one POST are created in the background (202). */
const FOREGROUND_MAX = 10;

/** `User.dict()`: the POST and PUT shape, in the server's key order (notes §3.1). */
export function userDict(user: SimUser, org: SimOrg): Record<string, unknown> {
  return {
    id: user.id,
    organization: org.id,
    organization_name: org.name,
    name: user.name,
    email: user.email,
    groups: user.groups,
    last_active: null,
    pin: user.pin !== null,
    type: user.type,
    auth_type: user.auth_type,
    yubico_id: user.yubico_id,
    otp_secret: user.otp_secret,
    disabled: user.disabled,
    bypass_secondary: user.bypass_secondary,
    client_to_client: user.client_to_client,
    mac_addresses: user.mac_addresses,
    dns_servers: user.dns_servers,
    dns_suffix: user.dns_suffix,
    port_forwarding: user.port_forwarding,
    devices: [],
  };
}

/** `user_get` adds the console's fields to each dict (no server is ever online here). */
export function userReadDict(ctx: SimContext, user: SimUser, org: SimOrg): Record<string, unknown> {
  const servers = [...ctx.state.servers.values()]
    .filter(
      (s) =>
        s.organizations.includes(org.id) &&
        (s.groups.length === 0 || s.groups.some((g) => user.groups.includes(g))),
    )
    .map((s) => ({
      id: s.id,
      name: s.name,
      status: false,
      server_id: s.id,
      device_name: null,
      platform: null,
      real_address: null,
      virt_address: null,
      virt_address6: null,
      connected_since: null,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return {
    ...userDict(user, org),
    gravatar: true,
    audit: false,
    status: false,
    sso: null,
    otp_auth: false,
    dns_mapping: null,
    network_links: [...user.network_links],
    servers,
  };
}

function portForwarding(value: unknown): PortForward[] {
  const list = Array.isArray(value) ? (value as Record<string, string>[]) : [];
  return list.map((p) => ({
    protocol: filterStr(p.protocol ?? ''),
    port: filterStr(p.port ?? ''),
    dport: filterStr(p.dport ?? ''),
  }));
}

const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.length > 0 ? (v as string[]) : null);
const groupsOf = (v: unknown): string[] => [
  ...new Set((Array.isArray(v) ? (v as string[]) : []).map((g) => filterStr(g))),
];

/** A CIDR network (`ipaddress.ip_network`, strict): IPv4 only in the simulator. */
function validNetwork(text: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(text);
  if (m === null) return false;
  const octets = m.slice(1, 5).map(Number);
  const bits = m[5] === undefined ? 32 : Number(m[5]);
  if (octets.some((o) => o > 255) || bits > 32) return false;
  const value = octets.reduce((acc, o) => acc * 256 + o, 0);
  return value % 2 ** (32 - bits) === 0;
}

/** `_create_user`: one body; returns the error answer, or the user (network links added last). */
function createUser(
  ctx: SimContext,
  org: SimOrg,
  data: Readonly<Record<string, unknown>>,
): SimResponse | SimUser {
  const authTypeIn = filterStr(pyText(data.auth_type));
  const authType = AUTH_TYPES.has(authTypeIn) ? authTypeIn : 'local';
  const pin = filterStr(pyText(data.pin)) || null;
  const yubicoIn = pyText(data.yubico_id);
  const yubico = authType === 'yubico' && yubicoIn ? yubicoIn.slice(0, 12) : null;
  const bypass = data.bypass_secondary === true;
  if (pin !== null && !/^\d+$/.test(pin)) return appError(400, ERRORS.pinNotDigits);
  if (pin !== null && pin.length < PIN_MIN_LENGTH) return appError(400, ERRORS.pinTooShort);
  if (bypass && pin !== null) return appError(400, ERRORS.pinBypassSecondary);
  if (bypass && yubico !== null) return appError(400, ERRORS.yubikeyBypassSecondary);
  const user: SimUser = {
    id: ctx.gen.id(),
    orgId: org.id,
    name: filterStr(pyText(data.name)),
    email: filterStr(pyText(data.email)),
    groups: groupsOf(data.groups),
    pin,
    type: 'client',
    auth_type: authType,
    yubico_id: yubico,
    otp_secret: ctx.gen.otpSecret(),
    disabled: data.disabled === true,
    bypass_secondary: bypass,
    client_to_client: data.client_to_client === true,
    mac_addresses: strings(data.mac_addresses),
    dns_servers: strings(data.dns_servers),
    dns_suffix: filterStr(pyText(data.dns_suffix)) || null,
    port_forwarding: portForwarding(data.port_forwarding),
    network_links: [],
  };
  ctx.state.users.set(user.id, user);
  // Partial success: the user exists before a bad network link answers 400 (notes, second check).
  for (const link of strings(data.network_links) ?? []) {
    if (!validNetwork(link)) return appError(400, ERRORS.networkLinkInvalid);
    user.network_links.push(link);
  }
  return user;
}

/** `POST /user/<org_id>`: an array of dicts, even for one user; more than 10 go to the background. */
export function userPost(
  ctx: SimContext,
  call: Call,
  bodies: readonly Readonly<Record<string, unknown>>[],
): SimResponse {
  const org = ctx.state.organizations.get(argId(call.params.org_id) ?? '');
  if (org === undefined) return abort(500);
  if (bodies.length > FOREGROUND_MAX)
    return jsonify({ status: 'users_background', status_msg: 'Users will be created in background.' }, 202);
  const created: Record<string, unknown>[] = [];
  for (const body of bodies) {
    const result = createUser(ctx, org, body);
    if (!('id' in result)) return result;
    created.push(userDict(result, org));
  }
  return jsonify(created);
}

function loadUser(ctx: SimContext, call: Call): { org: SimOrg; user: SimUser } | undefined {
  const org = ctx.state.organizations.get(argId(call.params.org_id) ?? '');
  const user = ctx.state.users.get(argId(call.params.user_id) ?? '');
  return org === undefined || user === undefined ? undefined : { org, user };
}

/** `GET /user/<org_id>[/<user_id>]`: 404 for an unknown organization or user. */
export function userGet(ctx: SimContext, call: Call): SimResponse {
  const org = ctx.state.organizations.get(argId(call.params.org_id) ?? '');
  if (org === undefined) return abort(404);
  const userId = argId(call.params.user_id);
  if (userId === null) return searchUsers(ctx, call, org);
  const user = ctx.state.users.get(userId);
  return user === undefined ? abort(404) : jsonify(userReadDict(ctx, user, org));
}

/** PIN rules of `user_put`: `true` keeps the PIN, a falsy value clears it, a string is checked. */
function putPin(user: SimUser, pin: unknown): SimResponse | undefined {
  if (pin === true) return undefined;
  if (!pin) {
    user.pin = null;
    return undefined;
  }
  // `pin.isdigit()` on a number or a list raises: an unhandled exception is a 500.
  if (typeof pin !== 'string') return abort(500);
  if (!/^\d+$/.test(pin)) return appError(400, ERRORS.pinNotDigits);
  if (pin.length < PIN_MIN_LENGTH) return appError(400, ERRORS.pinTooShort);
  user.pin = pin;
  return undefined;
}

/** `PUT /user/<org_id>/<user_id>`: every key is applied; a missing user or organization is a 500. */
export function userPut(ctx: SimContext, call: Call): SimResponse {
  const found = loadUser(ctx, call);
  if (found === undefined) return abort(500);
  const { org, user } = found;
  const d = call.json;
  user.name = filterStr(pyText(d.name)) || 'undefined';
  user.email = filterStr(pyText(d.email)) || null;
  const authType = filterStr(pyText(d.auth_type));
  if (AUTH_TYPES.has(authType)) user.auth_type = authType;
  if (user.auth_type === 'yubico') user.yubico_id = filterStr(pyText(d.yubico_id)).slice(0, 12) || null;
  user.groups = groupsOf(d.groups);
  const pinError = putPin(user, d.pin);
  if (pinError) return pinError;
  const links = strings(d.network_links) ?? [];
  const bad = links.find((l) => !validNetwork(l));
  if (bad !== undefined) return appError(400, ERRORS.networkLinkInvalid);
  user.network_links = [...new Set(links)];
  user.port_forwarding = portForwarding(d.port_forwarding);
  user.disabled = d.disabled === true;
  user.bypass_secondary = d.bypass_secondary === true;
  user.client_to_client = d.client_to_client === true;
  if (user.bypass_secondary && user.pin !== null) return appError(400, ERRORS.pinBypassSecondary);
  user.mac_addresses = strings(d.mac_addresses);
  user.dns_servers = strings(d.dns_servers);
  user.dns_suffix = filterStr(pyText(d.dns_suffix)) || null;
  return jsonify(userDict(user, org));
}

/** `DELETE /user/<org_id>/<user_id>` -> `{}`; a missing one is a 500. */
export function userDelete(ctx: SimContext, call: Call): SimResponse {
  const found = loadUser(ctx, call);
  if (found === undefined) return abort(500);
  ctx.state.users.delete(found.user.id);
  return jsonify({});
}
