/**
 * Drift repair: each manager's organizations and accounts compared with the store. The store is
 * read first and the server after, so anything the API stored had been made on the server
 * before the listing (the API makes there first, stores after) and is never taken for missing.
 * What the store says should exist and the server lacks is made again (an organization, then its
 * accounts); records that differ are refreshed from the server; what the server has and the store
 * does not know is reported once (an alert) and left alone. A manager that cannot be used marks
 * its organizations `unreachable` (host reads never call the server, so nothing else fails).
 * Writes to the store check that the item still says what was read (`casPatch`): a repair racing
 * an operator's change is dropped, and what it made on the server deleted again.
 */
import { HttpError, systemContext } from '@fleet/engine';
import { hosts, vpn_managers, vpn_organizations } from '@fleet/resources';
import type { VpnClient } from '../client';
import type { VpnOrganization, VpnUser } from '../types';
import { createAccount, undoAccount } from './accounts';
import { reason } from './alerts';
import { casPatch } from './cas';
import { alert, idIn, storedOrganizationIds, type Deps, type StoredOrganization } from './deps';
import { accountRecord, organizationRecord, sameRecord } from './records';

/** One manager's findings (the `managers[]` of the answer). */
export interface ManagerReport {
  _id: string;
  name: string;
  reachable: boolean;
  error?: string;
  organizations: { checked: number; recreated: number; refreshed: number; extra: number };
  accounts: { checked: number; recreated: number; refreshed: number; extra: number };
  failures: string[];
}

type LinkedHost = {
  _id: string;
  _etag: string;
  vpn_organization?: string | null;
  vpnsrv_representation?: Record<string, unknown> | null;
};

interface Run {
  readonly d: Deps;
  readonly manager: { readonly _id: string; readonly name: string };
  readonly client: VpnClient;
  readonly report: ManagerReport;
  /** Server ids of the organizations the store holds, as repaired. */
  readonly known: Set<string>;
}

const counts = () => ({ checked: 0, recreated: 0, refreshed: 0, extra: 0 });

/** Reconciles every manager, or one. */
export async function reconcileAll(
  d: Deps,
  only?: string,
): Promise<{ _status: 'OK'; managers: ManagerReport[] }> {
  const sys = systemContext(d.runtime);
  const managers = await d.runtime.resources
    .of(vpn_managers)
    .find({ ...(only === undefined ? {} : { where: { _id: only } }), projection: { name: 1 } }, sys);
  const reports: ManagerReport[] = [];
  for (const m of managers) reports.push(await reconcileManager(d, m));
  return { _status: 'OK', managers: reports };
}

/** Reconciles one manager. */
export async function reconcileManager(
  d: Deps,
  manager: { _id: string; name: string },
): Promise<ManagerReport> {
  const report: ManagerReport = {
    _id: manager._id,
    name: manager.name,
    reachable: true,
    organizations: counts(),
    accounts: counts(),
    failures: [],
  };
  const sys = systemContext(d.runtime);
  const stored = await d.runtime.resources
    .of(vpn_organizations)
    .find({ where: { vpn_manager: manager._id } }, sys);
  const where = { vpn_organization: { $in: stored.map((o) => o._id) } };
  const linked: LinkedHost[] =
    stored.length === 0
      ? []
      : await d.runtime.resources
          .of(hosts)
          .find(
            { where, projection: { vpn_organization: 1, vpnsrv_representation: 1 }, showDeleted: true },
            sys,
          );
  let client: VpnClient | null;
  let serverOrgs: VpnOrganization[];
  try {
    client = await d.pool.client(manager._id);
    if (client === null) return report;
    serverOrgs = await client.listOrganizations();
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    await markReachable(d, manager, reason(err));
    return { ...report, reachable: false, error: reason(err) };
  }
  await markReachable(d, manager);
  const run: Run = { d, manager, client, report, known: new Set() };
  const byId = new Map(serverOrgs.map((o) => [o.id, o]));
  for (const org of stored) {
    try {
      await reconcileOrganization(
        run,
        org,
        byId,
        linked.filter((h) => h.vpn_organization === org._id),
      );
    } catch (err) {
      report.failures.push(`organization "${org.name}": ${reason(err)}`);
      const id = idIn(org.vpnsrv_representation, 'id');
      if (id !== undefined) run.known.add(id);
    }
  }
  for (const o of serverOrgs) {
    if (run.known.has(o.id)) continue;
    report.organizations.extra += 1;
    await alert(d, {
      id: `vpn-extra-org-${o.id}`,
      type: 'vpn.organization.extra',
      level: 'info',
      payload: { manager: manager.name, manager_id: manager._id, id: o.id, name: o.name },
    });
  }
  return report;
}

/** Records whether the manager could be used; an alert when that changed. */
async function markReachable(d: Deps, manager: { _id: string; name: string }, error?: string): Promise<void> {
  const api = d.runtime.resources.of(vpn_organizations);
  const sys = systemContext(d.runtime);
  const down = error !== undefined;
  const changed = await api.patchMany(
    { vpn_manager: manager._id, unreachable: down ? { $ne: true } : true },
    { unreachable: down },
    sys,
  );
  if (changed === 0) return;
  d.log[down ? 'warn' : 'info'](
    { manager: manager.name, ...(down ? { err: error } : {}) },
    down ? 'VPN manager unreachable' : 'VPN manager reachable again',
  );
  const payload = {
    manager: manager.name,
    manager_id: manager._id,
    organizations: changed,
    ...(down ? { error } : {}),
  };
  await alert(
    d,
    down
      ? { type: 'vpn.unreachable', level: 'warning', payload }
      : { type: 'vpn.reachable', level: 'info', payload },
  );
}

/** One stored organization: made again when missing, refreshed, then its accounts. */
async function reconcileOrganization(
  run: Run,
  org: StoredOrganization,
  server: ReadonlyMap<string, VpnOrganization>,
  linked: readonly LinkedHost[],
): Promise<void> {
  const { d, client, report } = run;
  const sid = idIn(org.vpnsrv_representation, 'id');
  const found = sid === undefined ? undefined : server.get(sid);
  report.organizations.checked += 1;
  const serverOrg = found === undefined ? await recreateOrganization(run, org, sid) : found.id;
  run.known.add(serverOrg);
  if (found !== undefined) await refreshOrganization(run, org, found);
  const users = found === undefined ? [] : ((await client.listUsers(serverOrg)) ?? []);
  const byId = new Map(users.map((u) => [u.id, u]));
  const ours = new Set<string>();
  for (const host of linked) {
    const stored = idIn(host.vpnsrv_representation, 'id');
    try {
      ours.add(
        await reconcileAccount(run, {
          org,
          serverOrg,
          host,
          user: stored === undefined ? undefined : byId.get(stored),
        }),
      );
    } catch (err) {
      report.failures.push(`account of host "${host._id}": ${reason(err)}`);
      if (stored !== undefined) ours.add(stored);
    }
  }
  for (const u of users) {
    if (ours.has(u.id)) continue;
    report.accounts.extra += 1;
    await alert(d, {
      id: `vpn-extra-user-${u.id}`,
      type: 'vpn.account.extra',
      level: 'info',
      payload: { manager: client.manager, organization: org._id, id: u.id, name: u.name },
    });
  }
}

/** Makes a missing organization again and stores its record; resolves its server id. */
async function recreateOrganization(
  run: Run,
  org: StoredOrganization,
  previous: string | undefined,
): Promise<string> {
  const { d, client } = run;
  const rep = org.vpnsrv_representation ?? {};
  const name = typeof rep.name === 'string' && rep.name !== '' ? rep.name : org.name;
  const made = await d.leftovers.create({
    what: `organization "${name}" on VPN manager "${client.manager}"`,
    list: () => client.findOrganizations(name),
    create: () => client.createOrganization({ name, auth_api: rep.auth_api === true }),
    remove: (id) => client.deleteOrganization(id),
    kept: () => storedOrganizationIds(d, run.manager._id),
    payload: { manager: client.manager, organization: org._id, name },
  });
  const api = d.runtime.resources.of(vpn_organizations);
  try {
    await casPatch(
      d.runtime,
      { api, item: org, data: { vpnsrv_representation: organizationRecord(made) } },
      (fresh) => idIn(fresh.vpnsrv_representation, 'id') === previous,
    );
  } catch (err) {
    await client.deleteOrganization(made.id).catch(async (e: unknown) => {
      await alert(d, {
        type: 'vpn.leftover',
        level: 'error',
        payload: { manager: client.manager, kind: 'organization', id: made.id, name, error: reason(e) },
      });
    });
    throw err;
  }
  run.report.organizations.recreated += 1;
  await alert(d, {
    type: 'vpn.organization.recreated',
    level: 'warning',
    payload: {
      manager: client.manager,
      organization: org._id,
      name,
      previous: previous ?? null,
      id: made.id,
    },
  });
  return made.id;
}

/** Stores the server's record of an organization when it differs. */
async function refreshOrganization(run: Run, org: StoredOrganization, found: VpnOrganization): Promise<void> {
  const api = run.d.runtime.resources.of(vpn_organizations);
  const stored = (await api.get(org._id, systemContext(run.d.runtime), { reveal: true }))
    .vpnsrv_representation;
  const fresh = organizationRecord(found);
  if (sameRecord(stored, fresh)) return;
  await casPatch(
    run.d.runtime,
    { api, item: org, data: { vpnsrv_representation: fresh } },
    (f) => idIn(f.vpnsrv_representation, 'id') === found.id,
  );
  run.report.organizations.refreshed += 1;
}

/** One linked host: its account made again when missing, or its record refreshed; resolves the account's id. */
async function reconcileAccount(
  run: Run,
  a: { org: StoredOrganization; serverOrg: string; host: LinkedHost; user: VpnUser | undefined },
): Promise<string> {
  const { d, report } = run;
  const api = d.runtime.resources.of(hosts);
  const previous = idIn(a.host.vpnsrv_representation, 'id');
  const unchanged = (f: LinkedHost): boolean =>
    f.vpn_organization === a.org._id && idIn(f.vpnsrv_representation, 'id') === previous;
  report.accounts.checked += 1;
  if (a.user !== undefined) {
    const stored = (await api.get(a.host._id, systemContext(d.runtime), { reveal: true, showDeleted: true }))
      .vpnsrv_representation;
    const fresh = accountRecord(a.user);
    if (!sameRecord(stored, fresh)) {
      await casPatch(d.runtime, { api, item: a.host, data: { vpnsrv_representation: fresh } }, unchanged);
      report.accounts.refreshed += 1;
    }
    return a.user.id;
  }
  const made = await createAccount(d, a.org, a.host._id, a.serverOrg);
  try {
    await casPatch(
      d.runtime,
      { api, item: a.host, data: { vpnsrv_representation: accountRecord(made) } },
      unchanged,
    );
  } catch (err) {
    await undoAccount(d, { organization: a.org._id, account: made }, a.host._id).catch(() => undefined);
    throw err;
  }
  report.accounts.recreated += 1;
  await alert(d, {
    type: 'vpn.account.recreated',
    level: 'warning',
    payload: { hostname: a.host._id, organization: a.org._id, previous: previous ?? null, id: made.id },
  });
  return made.id;
}
