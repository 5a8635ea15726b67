/**
 * User routes (handlers/user.py): POST answers an array, reads add the console's
 * extra fields, and ids are looked up without the organization, as the server does
 * (`org.get_user(id)` loads by `_id` alone and labels the user with the URL's org). PUT is in
 * user-put.ts, the rules they share in user-rules.ts.
 */
import { since, type Call, type SimContext } from './context';
import type { SimOrg, SimUser } from './model';
import { argId } from './orgs';
import { searchUsers } from './search';
import {
  addNetworkLink,
  allows,
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

/**
 * `User.dict()` (user/user.py): the POST and PUT shape, in the server's key order; `last_active`
 * from 1.30.3116.68, `devices` from 1.32.3479.95.
 */
export function userDict(ctx: SimContext, user: SimUser, org: SimOrg): Record<string, unknown> {
  return {
    id: user.id,
    organization: org.id,
    organization_name: org.name,
    name: user.name,
    email: user.email,
    groups: user.groups,
    ...(since(ctx, 'yubicoAnyType') ? { last_active: null } : {}),
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
    ...(since(ctx, 'devices') ? { devices: [] } : {}),
  };
}

/**
 * `User.get_auth_modes` without SSO, Duo or OTP servers (none here): `bypass_secondary` alone, or
 * `yubico` for a user with a YubiKey, then `pin` for a user with a PIN (`pin_mode` optional).
 */
function authModes(user: SimUser): string[] {
  if (user.bypass_secondary) return ['bypass_secondary'];
  return [...(user.yubico_id ? ['yubico'] : []), ...(user.pin !== null ? ['pin'] : [])];
}

/**
 * `user_get` adds the console's fields to each dict (no server is ever online here, no client
 * connected): `otp_auth` until 1.30.3221.67, `auth_modes` since; `sso` is `settings.app.sso`.
 */
export function userReadDict(ctx: SimContext, user: SimUser, org: SimOrg): Record<string, unknown> {
  const servers = [...ctx.state.servers.values()]
    .filter((s) => s.organizations.includes(org.id) && allows(s, user))
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
    ...userDict(ctx, user, org),
    gravatar: true,
    audit: false,
    status: false,
    sso: false,
    ...(since(ctx, 'authModes') ? { auth_modes: authModes(user) } : { otp_auth: false }),
    dns_mapping: null,
    network_links: [...user.network_links],
    servers,
  };
}

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
