/**
 * What the VPN service's parts share: the runtime (the local API, as the system principal), the
 * clients of the managers, creates with cleanup, and the reads of the store they all need.
 */
import { Conflict, systemContext, type ItemOf, type Log, type Runtime } from '@fleet/engine';
import { hosts, vpn_organizations } from '@fleet/resources';
import type { VpnClient } from '../client';
import { raise, type VpnAlert } from './alerts';
import type { Leftovers } from './leftovers';
import type { ClientPool } from './pool';

/** The service's shared parts. */
export interface Deps {
  readonly runtime: Runtime;
  readonly log: Log;
  readonly pool: ClientPool;
  readonly leftovers: Leftovers;
}

/** A vpn_organizations item as the local API reads it. */
export type StoredOrganization = ItemOf<typeof vpn_organizations>;

/** A stored record's id field, or undefined. */
export function idIn(
  record: Readonly<Record<string, unknown>> | null | undefined,
  key: 'id' | 'organization',
): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The stored organization `id` (visible), or null. */
export async function storedOrganization(d: Deps, id: string): Promise<StoredOrganization | null> {
  const [org] = await d.runtime.resources
    .of(vpn_organizations)
    .find({ where: { _id: id } }, systemContext(d.runtime));
  return org ?? null;
}

/** The client of an organization's manager (the relation keeps the manager while the organization exists). */
export async function clientOf(d: Deps, org: StoredOrganization): Promise<VpnClient> {
  const client = await d.pool.client(org.vpn_manager);
  if (client === null)
    throw new Conflict(`VPN organization "${org.name}": its VPN manager ${org.vpn_manager} does not exist`);
  return client;
}

/** The server id of a stored organization; 409 when it has none (made before the integration: reconcile creates it). */
export function serverIdOf(org: StoredOrganization): string {
  const id = idIn(org.vpnsrv_representation, 'id');
  if (id === undefined) {
    throw new Conflict(
      `VPN organization "${org.name}" has no organization on its VPN server yet: POST /api/vpn_managers/${org.vpn_manager}/reconcile creates it`,
    );
  }
  return id;
}

/** Server ids of the organizations the store holds for a manager (hidden ones included). */
export async function storedOrganizationIds(d: Deps, manager: string): Promise<Set<string>> {
  const orgs = await d.runtime.resources
    .of(vpn_organizations)
    .find(
      { where: { vpn_manager: manager }, projection: { vpnsrv_representation: 1 } },
      systemContext(d.runtime),
    );
  return new Set(orgs.flatMap((o) => idIn(o.vpnsrv_representation, 'id') ?? []));
}

/** Server ids of the accounts the store holds in a server organization (hidden hosts included). */
export async function storedAccountIds(d: Deps, serverOrg: string): Promise<Set<string>> {
  const found = await d.runtime.resources.of(hosts).find(
    {
      where: { 'vpnsrv_representation.organization': serverOrg },
      projection: { vpnsrv_representation: 1 },
      showDeleted: true,
    },
    systemContext(d.runtime),
  );
  return new Set(found.flatMap((h) => idIn(h.vpnsrv_representation, 'id') ?? []));
}

/** Raises an alert (never throws). */
export function alert(d: Deps, a: VpnAlert): Promise<void> {
  return raise(d.runtime, d.log, a);
}
