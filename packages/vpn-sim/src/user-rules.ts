/**
 * What the user handlers (handlers/user.py `_create_user`, `user_put`) share: the auth types, the
 * 400 answers, the field filters, the release rule for `yubico_id`, and network links, which the
 * server writes to their own collection at once (`User.add_network_link`), not with the user.
 */
import { since, type SimContext } from './context';
import type { PortForward, SimServer, SimUser } from './model';
import { appError, filterStr, type SimResponse } from './wire';

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
export const PIN_MIN_LENGTH = 6;

/** The 400 answers of the user handlers (codes and messages of constants.py). */
export const ERRORS = {
  pinNotDigits: { error: 'pin_not_digits', error_msg: 'Pin must contain only digits.' },
  pinTooShort: { error: 'pin_too_short', error_msg: 'Pin is not long enough.' },
  pinRadius: { error: 'pin_radius', error_msg: 'Pin cannot be used with Radius users.' },
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
  networkLinkNotOffline: {
    error: 'network_link_not_offline',
    error_msg: 'All attached servers must be offline to add a network link.',
  },
} as const;

/**
 * Whether a user of `authType` keeps a `yubico_id`: only the `yubico` type until 1.30.3058.49,
 * every type containing `yubico` until 1.30.3116.68, any type since (77ce14f93).
 */
export function keepsYubicoId(ctx: SimContext, authType: string): boolean {
  if (since(ctx, 'yubicoAnyType')) return true;
  return since(ctx, 'yubicoTypes') ? authType.includes('yubico') : authType === 'yubico';
}

/** `port_forwarding` entries, each value through `filter_str`. */
export function portForwarding(ctx: SimContext, value: unknown): PortForward[] {
  const list = Array.isArray(value) ? (value as Record<string, string>[]) : [];
  return list.map((p) => ({
    protocol: filterStr(ctx, p.protocol ?? ''),
    port: filterStr(ctx, p.port ?? ''),
    dport: filterStr(ctx, p.dport ?? ''),
  }));
}

/** `value or None` of a list of strings (an empty list is None). */
export const stringsOrNull = (v: unknown): string[] | null =>
  Array.isArray(v) && v.length > 0 ? (v as string[]) : null;

/** Groups: each through `filter_str`, duplicates dropped (`list(set(groups))`). */
export const groupsOf = (ctx: SimContext, v: unknown): string[] => [
  ...new Set((Array.isArray(v) ? (v as string[]) : []).map((g) => filterStr(ctx, g))),
];

/**
 * `str(ipaddress.ip_network(text))` (strict: no host bits): the network as the server stores
 * it, or undefined when Python raises. IPv4 only here (the simulator refuses IPv6 networks).
 */
export function network(text: string): string | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(text);
  if (m === null) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const bits = m[5] === undefined ? 32 : Number(m[5]);
  if (octets.some((o) => o > 255) || bits > 32) return undefined;
  const value = octets.reduce((acc, o) => acc * 256 + o, 0);
  return value % 2 ** (32 - bits) === 0 ? `${octets.join('.')}/${bits}` : undefined;
}

/** `Server.check_groups`: a server without groups serves everyone. */
export function allows(server: SimServer, user: Pick<SimUser, 'groups'>): boolean {
  return server.groups.length === 0 || server.groups.some((g) => user.groups.includes(g));
}

/**
 * `User.add_network_link`: refused (ServerOnlineError -> 400 `network_link_not_offline`) while
 * a server the user can use is online; otherwise written at once, whatever the handler answers
 * later. Undefined when added.
 */
export function addNetworkLink(ctx: SimContext, user: SimUser, link: string): SimResponse | undefined {
  const online = [...ctx.state.servers.values()].some(
    (s) => s.organizations.includes(user.orgId) && allows(s, user) && s.status === 'online',
  );
  if (online) return appError(400, ERRORS.networkLinkNotOffline);
  const stored = network(link);
  if (stored === undefined) return appError(400, ERRORS.networkLinkInvalid);
  if (!user.network_links.includes(stored)) user.network_links = [...user.network_links, stored];
  return undefined;
}
