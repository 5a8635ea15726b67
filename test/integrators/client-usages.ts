/**
 * The same sixteen usages as stock/usages.ts, written with @fleet/client: its generated types,
 * `ok()` for the data or a FleetApiError, `createOne`, `upload`, `where`, `ifMatch`. Compiled by
 * the repository's strict type check; run against a started server by integrators.test.ts.
 */
import { createOne, ifMatch, ok, upload, where, type FleetClient, type Schemas } from '@fleet/client';

/** 1. A list with where, sort and page: the ids of page 2 of the up hosts, newest id first. */
export async function upHostsPage2(
  api: FleetClient,
): Promise<{ ids: string[]; total: number; next?: string }> {
  const page = await ok(
    api.GET('/api/hosts', {
      params: {
        query: { where: where<Schemas['Host']>({ status: 'up' }), sort: '-_id', page: 2, max_results: 3 },
      },
    }),
  );
  return { ids: page._items.map((h) => h._id), total: page._meta.total, next: page._links.next?.href };
}

/** 2. An item with embedded and projection: a group's name and its subgroups' names. */
export async function groupWithSubgroups(
  api: FleetClient,
  id: string,
): Promise<{ name?: string; subgroups: string[] }> {
  const group = await ok(
    api.GET('/api/groups/{id}', {
      params: {
        path: { id },
        query: {
          embedded: JSON.stringify({ subgroups: 1 }),
          projection: JSON.stringify({ name: 1, subgroups: 1 }),
        },
      },
    }),
  );
  const subgroups = (group.subgroups ?? []).map((s) => (typeof s === 'string' ? s : (s.name ?? s._id)));
  return { name: group.name, subgroups };
}

/** 3. Create a task, then change it only if it is still the version created (If-Match). */
export async function createThenPatch(api: FleetClient, host: string): Promise<{ id: string; etag: string }> {
  const created = await createOne(api, '/api/tasks', {
    name: 'uptime',
    fun: 'cmd.run',
    kwarg: { cmd: 'uptime' },
    start: '2030-01-01 04:30',
    tgt: [host],
    interval: 180,
  });
  const patched = await ok(
    api.PATCH('/api/tasks/{id}', {
      params: { path: { id: created._id }, header: ifMatch(created) },
      body: { interval: 300 },
    }),
  );
  return { id: created._id, etag: patched._etag };
}

/** 4. Delete an item. */
export async function deleteTask(api: FleetClient, id: string): Promise<number> {
  const result = await api.DELETE('/api/tasks/{id}', { params: { path: { id } } });
  await ok(Promise.resolve(result));
  return result.response.status;
}

/** 5. Execute a command on a host through the master. */
export async function runOnHost(api: FleetClient, host: string): Promise<{ jid: string; output: unknown }> {
  const run = await ok(
    api.POST('/api/hosts/{id}', {
      params: { path: { id: host } },
      body: { exec_client: 'local', fun: 'cmd.run', kwarg: { cmd: 'uptime' } },
    }),
  );
  return { jid: run.task_id, output: run.return.return[0]?.[host] };
}

/** 6. A task run on a cron schedule: its next run as the server computed it. */
export async function cronTask(api: FleetClient, host: string): Promise<string | undefined> {
  const created = await createOne(api, '/api/tasks', {
    name: 'nightly ping',
    fun: 'test.ping',
    start: '2030-01-01 00:00',
    tgt: [host],
    cron: '30 2 * * *',
  });
  const task = await ok(api.GET('/api/tasks/{id}', { params: { path: { id: created._id } } }));
  return task.next ?? undefined;
}

const RANGE = ['2026-01-01T00:00:00Z', '2031-01-01T00:00:00Z'];

/** 7. Hosts up and down over a period, point by point, at most one point an hour. */
export async function onlinePoints(api: FleetClient): Promise<{ up: number; down: number }[]> {
  const points = await ok(
    api.GET('/api/hosts/statistics/online', { params: { query: { 'range[]': RANGE, interval: 3600 } } }),
  );
  return points.map((p) => p.hostnames);
}

/** 8. Hosts online at least once in the period. */
export async function uniqueOnline(api: FleetClient): Promise<{ up: string[]; all: string[] }> {
  const [stat] = await ok(
    api.GET('/api/hosts/statistics/unique_online', { params: { query: { 'range[]': RANGE } } }),
  );
  return { up: stat?.hostnames.up ?? [], all: stat?.hostnames.all ?? [] };
}

/** 9. Hosts updated (state.apply) in the period. */
export async function uniqueUpdated(api: FleetClient): Promise<string[]> {
  const [stat] = await ok(
    api.GET('/api/hosts/statistics/unique_updated', { params: { query: { 'range[]': RANGE } } }),
  );
  return stat?.hostnames.updated ?? [];
}

/** 10. Hosts dist-upgraded in the period. */
export async function uniqueDistUpgraded(api: FleetClient): Promise<string[]> {
  const [stat] = await ok(
    api.GET('/api/hosts/statistics/unique_dist_upgraded', { params: { query: { 'range[]': RANGE } } }),
  );
  return stat?.hostnames.distUpgraded ?? [];
}

/** 11. Hosts first seen in the period. */
export async function newHosts(api: FleetClient): Promise<string[]> {
  const [stat] = await ok(
    api.GET('/api/hosts/statistics/new_hosts', { params: { query: { 'range[]': RANGE } } }),
  );
  return stat?.hostnames.new ?? [];
}

/** 12. The graph from a root group: node names and edges. */
export async function graphOf(
  api: FleetClient,
  root: string,
): Promise<{ nodes: string[]; edges: [string, string][] }> {
  const graph = await ok(api.GET('/api/graph/{id}', { params: { path: { id: root } } }));
  return {
    nodes: graph.nodes.map((n) => n.name),
    edges: graph.edges.map((e): [string, string] => [e.source, e.target]),
  };
}

/** 13. Upload a file (multipart): the client names the part after the file's name. */
export async function uploadFile(
  api: FleetClient,
  text: string,
): Promise<{ id: string; location: string | null }> {
  const written = await upload(api, '/api/files', {
    name: 'motd.txt',
    data: new Blob([text], { type: 'text/plain' }),
  });
  return { id: written._id, location: `/api/files/${written._id}` };
}

/** 14. Unread alerts, marked read by the same call. */
export async function readUnreadAlerts(api: FleetClient): Promise<Schemas['Alert'][]> {
  const page = await ok(
    api.GET('/api/alerts', {
      params: { query: { where: where<Schemas['Alert']>({ read: false }), mark_as_read: true } },
    }),
  );
  return page._items;
}

/** 15. A host's VPN client profile, downloaded as text. */
export async function vpnProfile(
  api: FleetClient,
  host: string,
): Promise<{ text: string; disposition: string | null }> {
  const result = await api.GET('/api/hosts/{id}/vpn_profile', {
    params: { path: { id: host } },
    parseAs: 'text',
  });
  const text = await ok(Promise.resolve(result));
  return { text, disposition: result.response.headers.get('Content-Disposition') };
}

/** 16. A refused create: the 422's `_issues`, field by field. */
export async function refusedGroup(
  api: FleetClient,
): Promise<{ status: number; issues?: Schemas['Issues'] }> {
  const { error, response } = await api.POST('/api/groups', { body: { name: '', type: 0 } });
  return { status: response.status, issues: error?._issues };
}
