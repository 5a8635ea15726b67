/**
 * The VPN port: what resources need from the VPN integration, and its slot in the runtime's
 * services (`vpn`). The server always starts it (managers are data, not configuration); without it (a runtime
 * built for a test, a tool) every action that needs a VPN server answers 503.
 *
 * The hooks of vpn_organizations and hosts call it so that every caller of the local API (HTTP,
 * integrations, hooks of other resources) makes the same calls on the VPN server, in the same
 * order: the peer first, then the store, and `onWriteError` undoing the peer's side when the
 * store write fails (docs/vpn.md "Failure design").
 */
import { ServiceUnavailable, type CallContext, type Download } from '@fleet/engine';
import { z } from 'zod';

/** The server's organization as stored in `vpnsrv_representation` (spec; pritunl/handlers/org.py). */
export type OrganizationRecord = {
  id: string;
  name: string;
  auth_api: boolean;
  auth_token: string | null;
  auth_secret: string | null;
  user_count: number;
  /** The organization CA's end (servers since Sept 2025). */
  expiration?: string | null;
};

/** A port forward of a user (strings, as the server keeps them). */
export type PortForward = { protocol: string; port: string; dport: string };

/** The server's user record as a host's `vpnsrv_representation` stores it (spec; pritunl/user/user.py). */
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
  port_forwarding: PortForward[];
  dns_servers: string[] | null;
  type: string;
  id: string;
};

/** Where a host's account is: the stored organization and the account's record (as stored). */
export interface AccountPlace {
  /** The `vpn_organizations` id. */
  readonly organization: string;
  /** The stored record (`id` and `organization` are the server's ids); null when there is none. */
  readonly account: { readonly id?: unknown; readonly organization?: unknown } | null;
}

/** A change of a host's `vpn_organization`. */
export interface AccountMove {
  readonly host: string;
  readonly from: AccountPlace | null;
  /** The new `vpn_organizations` id, or null to remove the account. */
  readonly to: string | null;
}

/** What one manager's reconcile found and did. */
export const managerReport = z.object({
  _id: z.string(),
  name: z.string(),
  reachable: z
    .boolean()
    .describe(
      'false: the manager could not be used (down, too slow, refusing the credentials); its organizations are marked unreachable',
    ),
  error: z.string().optional().describe('Why it could not be used'),
  organizations: z.object({
    checked: z.number().int(),
    recreated: z
      .number()
      .int()
      .describe('In the store, missing on the server: created again (their accounts too)'),
    refreshed: z.number().int().describe('Stored representation updated from the server'),
    extra: z.number().int().describe('On the server, not in the store: reported (alert), left alone'),
  }),
  accounts: z.object({
    checked: z.number().int(),
    recreated: z.number().int(),
    refreshed: z.number().int(),
    extra: z.number().int(),
  }),
  failures: z.array(z.string()).describe('Repairs that failed (they are tried again on the next run)'),
});

/** What POST /api/vpn_managers/reconcile (and /{id}/reconcile) answers. */
export const reconcileResponse = z.object({ _status: z.literal('OK'), managers: z.array(managerReport) });

/** One manager's reconcile report. */
export type ManagerReport = z.infer<typeof managerReport>;
/** A reconcile's answer. */
export type ReconcileReport = z.infer<typeof reconcileResponse>;

/** The VPN integration, as the resources call it (implemented by @fleet/vpn's `startVpnService`). */
export interface VpnService {
  /**
   * Creates the organization on the manager's server; resolves its record, or null when no such
   * manager exists (the reference check then answers 422). Nothing is left on the server when it fails.
   */
  createOrganization(
    o: { manager: string; name: string; authApi: boolean },
    ctx: CallContext,
  ): Promise<OrganizationRecord | null>;
  /**
   * Deletes the organization (and its users) on the manager's server; already gone is fine. 409
   * naming the VPN servers while any holds it (the server would stop them); `name` is the stored
   * organization's, for that message.
   */
  deleteOrganization(o: { manager: string; id: string; name?: string }, ctx: CallContext): Promise<void>;
  /** Deletes an organization created for a write that was then not stored; a failure raises a `vpn.leftover` alert. */
  undoOrganization(o: { manager: string; id: string }, ctx: CallContext): Promise<void>;
  /**
   * Links, moves or unlinks a host's account: creates it in the new organization, then deletes it
   * from the old one; resolves the new record (null: unlinked), or undefined when the new
   * organization does not exist (the reference check answers 422). A failure leaves both as they were.
   */
  moveAccount(move: AccountMove, ctx: CallContext): Promise<AccountRecord | null | undefined>;
  /** Deletes an account created for a write that was then not stored; a failure raises a `vpn.leftover` alert. */
  deleteAccount(place: AccountPlace, ctx: CallContext): Promise<void>;
  /** The host's client profile, as a download. */
  profile(host: string, ctx: CallContext): Promise<Download>;
  /** Compares every manager (or one) with the store, repairs what the store says should exist. */
  reconcile(o: { manager?: string }, ctx: CallContext): Promise<ReconcileReport>;
  /** The manager changed or was deleted: its client is closed, a new one made on next use. */
  managerChanged(id: string): Promise<void>;
}

declare module '@fleet/engine' {
  interface Services {
    /** The VPN integration: the server always runs it (managers are data, not configuration). */
    vpn?: VpnService;
  }
}

/** The VPN service, or 503 when the server runs without it. */
export function vpn(ctx: CallContext): VpnService {
  const service = vpnIfRunning(ctx);
  if (!service) throw new ServiceUnavailable('The VPN integration is not running in this process');
  return service;
}

/** The VPN service when it runs (hooks that only tidy up do nothing without it). */
export function vpnIfRunning(ctx: CallContext): VpnService | undefined {
  return ctx.runtime.services.vpn;
}

/** A stored record's string field (ids of a stored representation), or undefined. */
export function idOf(
  record: Readonly<Record<string, unknown>> | null | undefined,
  key: 'id' | 'organization',
): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
