/**
 * The server's records as the store keeps them: an organization's `vpnsrv_representation` and a
 * host's, with the spec's fields only. The fields the console's reads add (`status`, `servers`,
 * `last_active`, `network_links`, ...) change while hosts connect; keeping them would rewrite
 * every host on every reconcile, so they are left out. The shapes are `OrganizationRecord` and
 * `AccountRecord` of `resources/ports/vpn.ts` (the port), pinned by test/vpn-integration/port.test.ts.
 */
import type { VpnOrganization, VpnPortForward, VpnUser } from '../types';

/** An organization's `vpnsrv_representation` (without the local `cipher_type`). */
export type OrganizationRecord = {
  id: string;
  name: string;
  auth_api: boolean;
  auth_token: string | null;
  auth_secret: string | null;
  user_count: number;
  expiration?: string | null;
};

/** A host's `vpnsrv_representation`: `User.dict()` without `last_active` and `devices` (spec). */
export type AccountRecord = {
  auth_type: string;
  yubico_id: string | null;
  client_to_client: boolean;
  otp_secret: string;
  name: string;
  pin: boolean;
  dns_suffix: string | null;
  disabled: boolean;
  mac_addresses: string[] | null;
  email: string | null;
  organization_name: string;
  bypass_secondary: boolean;
  groups: string[];
  organization: string;
  port_forwarding: VpnPortForward[];
  dns_servers: string[] | null;
  type: string;
  id: string;
};

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
