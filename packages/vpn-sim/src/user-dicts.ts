/**
 * The dicts a user is answered as: `User.dict()` (POST and PUT) and the read dict of `user_get`
 * and the search, which adds the console's fields.
 */
import { since, type SimContext } from './context';
import type { SimOrg, SimUser } from './model';
import { allows } from './user-rules';

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
