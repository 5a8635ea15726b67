/**
 * The server's records as the store keeps them: an organization's `vpnsrv_representation` and a
 * host's, with the spec's fields only. The fields the console's reads add (`status`, `servers`,
 * `last_active`, `network_links`, ...) change while hosts connect; keeping them would rewrite
 * every host on every reconcile, so they are left out. The shapes are `OrganizationRecord` and
 * `AccountRecord` of the port (resources/ports/vpn.ts), declared there once.
 */
import type { AccountRecord, OrganizationRecord } from '@fleet/resources';
import type { VpnOrganization, VpnUser } from '../types';

/** The stored form of a server organization. */
export function organizationRecord(org: VpnOrganization): OrganizationRecord {
  const record: OrganizationRecord = {
    id: org.id,
    name: org.name,
    auth_api: org.auth_api,
    auth_token: org.auth_token,
    auth_secret: org.auth_secret,
    user_count: org.user_count,
  };
  if (org.expiration !== undefined) record.expiration = org.expiration;
  return record;
}

/** The stored form of a server user. */
export function accountRecord(user: VpnUser): AccountRecord {
  return {
    auth_type: user.auth_type,
    yubico_id: user.yubico_id,
    client_to_client: user.client_to_client,
    otp_secret: user.otp_secret,
    name: user.name,
    pin: user.pin,
    dns_suffix: user.dns_suffix,
    disabled: user.disabled,
    mac_addresses: user.mac_addresses,
    email: user.email,
    organization_name: user.organization_name,
    bypass_secondary: user.bypass_secondary,
    groups: user.groups,
    organization: user.organization,
    port_forwarding: user.port_forwarding,
    dns_servers: user.dns_servers,
    type: user.type,
    id: user.id,
  };
}

/** Whether every key of `fresh` has the same value in `stored` (keys only `stored` has are ignored). */
export function sameRecord(
  stored: Readonly<Record<string, unknown>> | null | undefined,
  fresh: Readonly<Record<string, unknown>>,
): boolean {
  if (stored === null || stored === undefined) return false;
  return Object.entries(fresh).every(
    ([k, v]) => JSON.stringify(stored[k] ?? null) === JSON.stringify(v ?? null),
  );
}
