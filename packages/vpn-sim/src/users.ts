/**
 * User routes (handlers/user.py): POST answers an array, reads add the console's
 * extra fields, and ids are looked up without the organization, as the server does
 * (`org.get_user(id)` loads by `_id` alone and labels the user with the URL's org). PUT is in
 * user-put.ts, the rules they share in user-rules.ts.
 */
import type { Call, SimContext } from './context';
import type { SimOrg, SimUser } from './model';
import { argId } from './orgs';
import { searchUsers } from './search';
import { userDict, userReadDict } from './user-dicts';
import {
  addNetworkLink,
  AUTH_TYPES,
  ERRORS,
  groupsOf,
  keepsYubicoId,
  PIN_MIN_LENGTH,
  portForwarding,
  stringsOrNull,
} from './user-rules';
import { abort, appError, filterStr, jsonify, type SimResponse, pyText } from './wire';

/** More users than this in one POST are created in the background (202). */
const FOREGROUND_MAX = 10;
/** `USERS_BACKGROUND_MSG` (constants.py). */
const BACKGROUND_MSG =
  'Users will be created in background. This task will take several seconds for each user being created.';

/** The checks of `_create_user` before the user exists: the 400 answer, or undefined. */
function createRefusal(pin: string | null, bypass: boolean, yubico: string | null): SimResponse | undefined {
  if (pin !== null && !/^\d+$/.test(pin)) return appError(400, ERRORS.pinNotDigits);
  if (pin !== null && pin.length < PIN_MIN_LENGTH) return appError(400, ERRORS.pinTooShort);
  if (bypass && pin !== null) return appError(400, ERRORS.pinBypassSecondary);
  if (bypass && yubico !== null) return appError(400, ERRORS.yubikeyBypassSecondary);
  return undefined;
}

/** `_create_user`: one body; returns the error answer, or the user (network links added last). */
function createUser(
  ctx: SimContext,
  org: SimOrg,
  data: Readonly<Record<string, unknown>>,
): SimResponse | SimUser {
  const authTypeIn = filterStr(ctx, pyText(data.auth_type));
  const authType = AUTH_TYPES.has(authTypeIn) ? authTypeIn : 'local';
  const pin = filterStr(ctx, pyText(data.pin)) || null;
  // Not filtered on create, only cut (`yubico_id[:12] if yubico_id else None`).
  const yubicoIn = pyText(data.yubico_id);
  const yubico = keepsYubicoId(ctx, authType) && yubicoIn ? yubicoIn.slice(0, 12) : null;
  const bypass = data.bypass_secondary === true;
  const refused = createRefusal(pin, bypass, yubico);
  if (refused) return refused;
  const user: SimUser = {
    id: ctx.gen.id(),
    orgId: org.id,
    name: filterStr(ctx, pyText(data.name)),
    email: filterStr(ctx, pyText(data.email)),
    groups: groupsOf(ctx, data.groups),
    pin,
    type: 'client',
    auth_type: authType,
    yubico_id: yubico,
    otp_secret: ctx.gen.otpSecret(),
    disabled: data.disabled === true,
    bypass_secondary: bypass,
    client_to_client: data.client_to_client === true,
    mac_addresses: stringsOrNull(data.mac_addresses),
    dns_servers: stringsOrNull(data.dns_servers),
    dns_suffix: filterStr(ctx, pyText(data.dns_suffix)) || null,
    port_forwarding: portForwarding(ctx, data.port_forwarding),
    network_links: [],
  };
  ctx.state.users.set(user.id, user);
  // Partial success: the user exists before a bad network link answers 400 (notes, second check).
  for (const link of stringsOrNull(data.network_links) ?? []) {
    const failed = addNetworkLink(ctx, user, link);
    if (failed) return failed;
  }
  return user;
}

/**
 * `POST /user/<org_id>`: an array of dicts, even for one user. More than 10 go to a background
 * thread: 202 before the organization is even looked at (the simulator creates none of them).
 */
export function userPost(
  ctx: SimContext,
  call: Call,
  bodies: readonly Readonly<Record<string, unknown>>[],
): SimResponse {
  if (bodies.length > FOREGROUND_MAX)
    return jsonify({ status: 'users_background', status_msg: BACKGROUND_MSG }, 202);
  const org = ctx.state.organizations.get(argId(call.params.org_id) ?? '');
  if (org === undefined) return abort(500);
  const created: Record<string, unknown>[] = [];
  for (const body of bodies) {
    const result = createUser(ctx, org, body);
    if (!('id' in result)) return result;
    created.push(userDict(ctx, result, org));
  }
  return jsonify(created);
}

/** The URL's organization and the user of the URL's id (whatever its organization). */
export function loadUser(ctx: SimContext, call: Call): { org: SimOrg; user: SimUser } | undefined {
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

/** `DELETE /user/<org_id>/<user_id>` -> `{}`; a missing one is a 500. */
export function userDelete(ctx: SimContext, call: Call): SimResponse {
  const found = loadUser(ctx, call);
  if (found === undefined) return abort(500);
  ctx.state.users.delete(found.user.id);
  return jsonify({});
}
