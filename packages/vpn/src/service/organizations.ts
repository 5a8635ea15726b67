/**
 * Organizations on the VPN server, for the hooks of vpn_organizations. Calls (docs/vpn.md):
 * create = `GET /organization` (the names before) + `POST /organization`; delete = `GET /server`
 * and `GET /server/<id>/organization` of each (refused, 409, while one holds it: the server
 * would stop it) + `DELETE /organization/<id>` (+ `GET /organization` when the server answers
 * 500, to tell "gone" from a failure). Each after the manager's login when its client has no
 * session yet.
 */
import { Conflict } from '@fleet/engine';
import { VpnAttached } from '../client-errors';
import { alert, storedOrganizationIds, type Deps } from './deps';
import type { OrganizationRecord } from '@fleet/resources';
import { organizationRecord } from './records';
import { reason } from './alerts';

/** Creates the organization; null when the manager does not exist. */
export async function createOrganization(
  d: Deps,
  o: { manager: string; name: string; authApi: boolean },
): Promise<OrganizationRecord | null> {
  const client = await d.pool.client(o.manager);
  if (client === null) return null;
  const org = await d.leftovers.create({
    what: `organization "${await client.storedName(o.name)}" on VPN manager "${client.manager}"`,
    list: () => client.findOrganizations(o.name),
    create: () => client.createOrganization({ name: o.name, auth_api: o.authApi }),
    remove: (id) => client.deleteOrganization(id),
    kept: () => storedOrganizationIds(d, o.manager),
    payload: { manager: client.manager, manager_id: o.manager, name: o.name },
  });
  d.log.info({ manager: client.manager, organization: org.id }, 'VPN organization created');
  return organizationRecord(org);
}

/**
 * Deletes the organization (its users with it); already gone is fine. Nothing to do without the
 * manager. 409 naming the VPN servers while any holds it (`name`: the stored organization's, for
 * the message).
 */
export async function deleteOrganization(
  d: Deps,
  o: { manager: string; id: string; name?: string },
): Promise<void> {
  const client = await d.pool.client(o.manager);
  if (client === null) return;
  let outcome;
  try {
    outcome = await client.deleteOrganization(o.id);
  } catch (err) {
    if (!(err instanceof VpnAttached) || o.name === undefined) throw err;
    const names = err.servers.map((s) => `"${s.name}" (${s.status})`).join(', ');
    const servers = err.servers.length > 1 ? 'VPN servers' : 'VPN server';
    throw new Conflict(
      `VPN organization "${o.name}" is attached to ${servers} ${names} of VPN manager "${client.manager}": deleting it there would stop every one of them that is online. Its administrator detaches it from them in the VPN server's console first`,
    );
  }
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
