/**
 * `PUT /user/<org_id>/<user_id>` (handlers/user.py `user_put`). Through pritunl-web every key
 * arrives (the Go struct's zero values for the missing ones), so every field is re-set: an
 * omitted one is reset. The handler changes the loaded user in memory and commits
 * it last (`user.commit()`): an answer of 400 leaves the user as it was, except its network
 * links, which `add_network_link` / `remove_network_link` write to their collection at once.
 */
import type { Call, SimContext } from './context';
import type { SimUser } from './model';
import {
  addNetworkLink,
  AUTH_TYPES,
  ERRORS,
  groupsOf,
  keepsYubicoId,
  network,
  PIN_MIN_LENGTH,
  portForwarding,
  stringsOrNull,
} from './user-rules';
import { userDict } from './user-dicts';
import { loadUser } from './users';
import { abort, appError, filterStr, jsonify, pyText, type SimResponse } from './wire';

/** The user's fields the handler changes in memory (network links are written apart). */
type Draft = Omit<SimUser, 'network_links'>;

/**
 * The PIN of `user_put`: `true` keeps it, a falsy value clears it, a string is checked
 * (`pin_radius` for a RADIUS user, digits only, the minimum length); anything else makes
 * `pin.isdigit()` raise: 500.
 */
function putPin(draft: Draft, pin: unknown): SimResponse | undefined {
  if (pin === true) return undefined;
  if (!pin) {
    draft.pin = null;
    return undefined;
  }
  if (draft.auth_type.includes('radius')) return appError(400, ERRORS.pinRadius);
  if (typeof pin !== 'string') return abort(500);
  if (!/^\d+$/.test(pin)) return appError(400, ERRORS.pinNotDigits);
  if (pin.length < PIN_MIN_LENGTH) return appError(400, ERRORS.pinTooShort);
  draft.pin = pin;
  return undefined;
}

/**
 * The network links of `user_put`: every one parsed first (a bad one: 400, nothing written),
 * then the new ones added, each at once (an online server refuses the rest: 400), then the
 * ones not sent removed.
 */
function putLinks(ctx: SimContext, user: SimUser, sent: unknown): SimResponse | undefined {
  const wanted = new Set<string>();
  for (const link of stringsOrNull(sent) ?? []) {
    const stored = network(link);
    if (stored === undefined) return appError(400, ERRORS.networkLinkInvalid);
    wanted.add(stored);
  }
  for (const link of wanted) {
    if (user.network_links.includes(link)) continue;
    const refused = addNetworkLink(ctx, user, link);
    if (refused) return refused;
  }
  user.network_links = user.network_links.filter((l) => wanted.has(l));
  return undefined;
}

/** The fields before the PIN: name, email, auth type, YubiKey id, groups. */
function putIdentity(ctx: SimContext, draft: Draft, d: Readonly<Record<string, unknown>>): void {
  draft.name = filterStr(ctx, pyText(d.name)) || 'undefined';
  draft.email = filterStr(ctx, pyText(d.email)) || null;
  const authType = filterStr(ctx, pyText(d.auth_type));
  if (AUTH_TYPES.has(authType)) draft.auth_type = authType;
  if (keepsYubicoId(ctx, draft.auth_type))
    draft.yubico_id = filterStr(ctx, pyText(d.yubico_id)).slice(0, 12) || null;
  draft.groups = groupsOf(ctx, d.groups);
}

/** The fields after the network links, up to the bypass checks; the 400 answer, or undefined. */
function putAccess(
  ctx: SimContext,
  draft: Draft,
  d: Readonly<Record<string, unknown>>,
): SimResponse | undefined {
  draft.port_forwarding = portForwarding(ctx, d.port_forwarding);
  draft.disabled = d.disabled === true;
  draft.bypass_secondary = d.bypass_secondary === true;
  draft.client_to_client = d.client_to_client === true;
  if (draft.bypass_secondary && draft.pin !== null) return appError(400, ERRORS.pinBypassSecondary);
  if (draft.bypass_secondary && draft.yubico_id !== null) return appError(400, ERRORS.yubikeyBypassSecondary);
  draft.mac_addresses = stringsOrNull(d.mac_addresses);
  draft.dns_servers = stringsOrNull(d.dns_servers);
  draft.dns_suffix = filterStr(ctx, pyText(d.dns_suffix)) || null;
  return undefined;
}

/** `PUT /user/<org_id>/<user_id>`: a missing user or organization is a 500. */
export function userPut(ctx: SimContext, call: Call): SimResponse {
  const found = loadUser(ctx, call);
  if (found === undefined) return abort(500);
  const { org, user } = found;
  const { network_links: _links, ...current } = user;
  const draft: Draft = { ...current, groups: [...user.groups] };
  putIdentity(ctx, draft, call.json);
  const refused =
    putPin(draft, call.json.pin) ??
    putLinks(ctx, user, call.json.network_links) ??
    putAccess(ctx, draft, call.json);
  if (refused) return refused;
  Object.assign(user, draft);
  return jsonify(userDict(ctx, user, org));
}
