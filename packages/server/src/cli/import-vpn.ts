/**
 * The VPN integration as `fleet import` runs it: the original application's VPN organizations and
 * host accounts already exist on the VPN servers, so creating an organization or linking a host
 * adopts the record the original stored instead of making a new one on the server. Nothing else
 * is done (the import never deletes or reconciles); `POST /api/vpn_managers/reconcile` on the
 * running API compares the imported records with the servers afterwards (docs/mongodb.md).
 */
import { ServiceUnavailable, type Download } from '@fleet/engine';
import type { AccountRecord, OrganizationRecord, ReconcileReport, VpnService } from '@fleet/resources';

const NOT_DURING_IMPORT = 'the VPN servers are not changed by an import';

/** An organization's key: its manager and its name. */
const orgKey = (manager: string, name: string): string => `${manager}\u0000${name}`;

/** Hands the resources the records the original stored (see above). */
export class AdoptingVpn implements VpnService {
  private readonly accounts = new Map<string, AccountRecord | null>();
  private readonly organizations = new Map<string, OrganizationRecord>();

  /** The account record the original stored for a host (or none). */
  rememberAccount(host: string, record: unknown): void {
    this.accounts.set(host, typeof record === 'object' && record !== null ? (record as AccountRecord) : null);
  }

  /** The organization record the original stored, by its manager and name. */
  rememberOrganization(manager: string, name: string, record: unknown): void {
    if (typeof record === 'object' && record !== null)
      this.organizations.set(orgKey(manager, name), record as OrganizationRecord);
  }

  async createOrganization(o: { manager: string; name: string }): Promise<OrganizationRecord | null> {
    return this.organizations.get(orgKey(o.manager, o.name)) ?? null;
  }

  async moveAccount(move: { host: string; from: unknown }): Promise<AccountRecord | null | undefined> {
    if (move.from !== null) throw new ServiceUnavailable(NOT_DURING_IMPORT);
    return this.accounts.get(move.host) ?? null;
  }

  async deleteOrganization(): Promise<void> {
    throw new ServiceUnavailable(NOT_DURING_IMPORT);
  }

  async undoOrganization(): Promise<void> {
    // A refused organization: the server keeps the one the original made (it was never ours).
  }

  async deleteAccount(): Promise<void> {
    // A refused host: the server keeps the account the original made (it was never ours).
  }

  async profile(): Promise<Download> {
    throw new ServiceUnavailable(NOT_DURING_IMPORT);
  }

  async reconcile(): Promise<ReconcileReport> {
    throw new ServiceUnavailable(NOT_DURING_IMPORT);
  }

  async managerChanged(): Promise<void> {
    // Nothing is cached during an import.
  }
}
