/**
 * The bodies of user writes. pritunl-web fills every field the client leaves out with its zero
 * value, and `PUT` applies every field it receives (handlers/user.py `user_put`): a create sends only what it is
 * given, an update sends the whole record.
 */
import type { VpnUser, VpnUserChanges, VpnUserInput } from './types';

/** The POST body: only the given fields (pritunl-web fills the others with zero values). */
export function createBody(input: VpnUserInput): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) body[k] = v;
  return body;
}

/** A PUT body, with the network links it sets. */
export interface PutBody extends Record<string, unknown> {
  network_links: string[];
}

/** The whole record for PUT: the current user with `changes` applied; `pin: true` keeps a PIN. */
export function putBody(current: VpnUser, changes: VpnUserChanges): PutBody {
  const merged = { ...current, ...changes };
  return {
    name: merged.name,
    email: merged.email ?? '',
    auth_type: merged.auth_type,
    yubico_id: merged.yubico_id ?? '',
    groups: merged.groups,
    pin: changes.pin !== undefined ? changes.pin : current.pin,
    disabled: merged.disabled,
    network_links: changes.network_links ?? current.network_links ?? [],
    bypass_secondary: merged.bypass_secondary,
    client_to_client: merged.client_to_client,
    mac_addresses: merged.mac_addresses,
    dns_servers: merged.dns_servers,
    dns_suffix: merged.dns_suffix ?? '',
    port_forwarding: merged.port_forwarding,
  };
}
