/**
 * Organizations on the VPN server, for the hooks of vpn_organizations. Calls (docs/vpn.md):
 * create = `GET /organization` (the names before) + `POST /organization`; delete =
 * `DELETE /organization/<id>` (+ `GET /organization` when the server answers 500, to tell "gone"
 * from a failure). Each after the manager's login when its client has no session yet.
 */
import { filterName } from '../names';
import { alert, storedOrganizationIds, type Deps } from './deps';
import { organizationRecord, type OrganizationRecord } from './records';
import { reason } from './alerts';

/** Creates the organization; null when the manager does not exist. */
export async function createOrganization(
  d: Deps,
  o: { manager: string; name: string; authApi: boolean },
): Promise<OrganizationRecord | null> {
  const client = await d.pool.client(o.manager);
  if (client === null) return null;
  const org = await d.leftovers.create({
    what: `organization "${filterName(o.name)}" on VPN manager "${client.manager}"`,
    list: () => client.findOrganizations(o.name),
    create: () => client.createOrganization({ name: o.name, auth_api: o.authApi }),
    remove: (item) => client.deleteOrganization(item.id),
    kept: () => storedOrganizationIds(d, o.manager),
    payload: { manager: client.manager, manager_id: o.manager, name: o.name },
  });
  d.log.info({ manager: client.manager, organization: org.id }, 'VPN organization created');
  return organizationRecord(org);
}

/** Deletes the organization (its users with it); already gone is fine. Nothing to do without the manager. */
export async function deleteOrganization(d: Deps, o: { manager: string; id: string }): Promise<void> {
  const client = await d.pool.client(o.manager);
  if (client === null) return;
  const outcome = await client.deleteOrganization(o.id);
  d.log.info({ manager: client.manager, organization: o.id, outcome }, 'VPN organization deleted');
}

/** The compensation of a create the store then refused: deletes it, or raises `vpn.leftover`. */
export async function undoOrganization(d: Deps, o: { manager: string; id: string }): Promise<void> {
  try {
    await deleteOrganization(d, o);
  } catch (err) {
    await alert(d, {
      type: 'vpn.leftover',
      level: 'error',
      payload: { manager_id: o.manager, kind: 'organization', id: o.id, error: reason(err) },
    });
    throw err;
  }
}
