/**
 * Typical usages of @fleet/client, as a frontend or a script writes them: compiled by the
 * typecheck step (tsc checks this file like any other, and each `@ts-expect-error` proves a
 * mistake the types refuse), and run against a started server by client.test.ts. Each usage is
 * one function taking a client; what it returns is what the runtime test looks at.
 */
import {
  all,
  createMany,
  createOne,
  FleetApiError,
  ifMatch,
  items,
  linkUrl,
  ok,
  pages,
  upload,
  where,
  type FleetClient,
  type Schemas,
} from '@fleet/client';

type Host = Schemas['Host'];

/** 1. A page of hosts: every item has `_id` (a string, never undefined). */
export async function hostIds(client: FleetClient): Promise<string[]> {
  const page = await ok(client.GET('/api/hosts', { params: { query: { max_results: 50 } } }));
  return page._items.map((host) => host._id);
}

/** 2. `_meta.total` of a filtered list, 3. with a `where` typed by the hosts' fields. */
export async function countUp(client: FleetClient): Promise<number> {
  const page = await ok(
    client.GET('/api/hosts', { params: { query: { where: where<Host>({ status: 'up' }), max_results: 1 } } }),
  );
  return page._meta.total;
}

/** 4. `where` with operators, a dotted path into the grain, and `$or`. */
export function hostFilter(): string {
  return where<Host>({
    $or: [{ status: 'down' }, { key: { $in: ['pending', 'rejected'] } }],
    'grain.osfullname': { $regex: '^Debian' },
  });
}

/** 5. Following `_links.next.href` by hand, page after page. */
export async function followNext(client: FleetClient, baseUrl: string, token: string): Promise<number> {
  const first = await ok(client.GET('/api/hosts', { params: { query: { max_results: 2 } } }));
  let seen = first._items.length;
  let next = first._links.next;
  while (next !== undefined) {
    const res = await fetch(linkUrl(baseUrl, next), { headers: { Authorization: `Bearer ${token}` } });
    const page = (await res.json()) as Schemas['HostsPage'];
    seen += page._items.length;
    next = page._links.next;
  }
  return seen;
}

/** 6. Every page by the helper; 7. every item. */
export async function everyHost(client: FleetClient): Promise<{ pages: number; ids: string[] }> {
  let count = 0;
  for await (const page of pages(client, '/api/hosts', { max_results: 2, sort: '_id' }))
    count += page._items.length > 0 ? 1 : 0;
  const ids: string[] = [];
  for await (const host of items(client, '/api/hosts', { max_results: 2 })) ids.push(host._id);
  return { pages: count, ids };
}

/** 8. One host with its grain (an item GET), its status typed as the enum. */
export async function hostStatus(
  client: FleetClient,
  id: string,
): Promise<{ status: 'up' | 'down' | undefined; cpu: string | undefined; etag: string }> {
  const host = await ok(client.GET('/api/hosts/{id}', { params: { path: { id } } }));
  return { status: host.status, cpu: host.grain?.cpu_model, etag: host._etag };
}

/** 9. A projection: only the fields asked for come back (the others are optional in the types). */
export async function statusesOnly(client: FleetClient): Promise<Array<Pick<Host, '_id' | 'status'>>> {
  return all(client, '/api/hosts', { projection: JSON.stringify({ status: 1 }) });
}

/** 10. PATCH a task with one field, only if it is still the version we read. */
export async function retimeTask(client: FleetClient, id: string): Promise<string> {
  const task = await ok(client.GET('/api/tasks/{id}', { params: { path: { id } } }));
  const written = await ok(
    client.PATCH('/api/tasks/{id}', {
      params: { path: { id }, header: ifMatch(task) },
      body: { interval: 300 },
    }),
  );
  return written._etag;
}

/** 11. Create a task (its required fields), read the new `_id`. */
export async function newTask(client: FleetClient): Promise<string> {
  const written = await createOne(client, '/api/tasks', {
    name: 'uptime',
    fun: 'cmd.run',
    start: '2030-01-01 04:30',
    tgt: ['*'],
    kwarg: { cmd: 'uptime' },
    interval: 180,
  });
  return written._id;
}

/** 12. Pause a task (PATCH /tasks/{id}/{status}), 13. change one by PUT naming it by `_id`. */
export async function pauseAndRetarget(client: FleetClient, id: string): Promise<string> {
  await ok(client.PATCH('/api/tasks/{id}/{status}', { params: { path: { id, status: 'paused' } } }));
  const written = await ok(client.PUT('/api/tasks', { body: { _id: id, tgt: ['web-1.fleet.test'] } }));
  return written._status;
}

/** 14. Upload a file (multipart), then read its item and the link to its bytes. */
export async function uploadMotd(
  client: FleetClient,
  text: string,
): Promise<{ id: string; data: string | undefined }> {
  const written = await upload(client, '/api/files', {
    name: 'motd.txt',
    data: new Blob([text], { type: 'text/plain' }),
  });
  const file = await ok(client.GET('/api/files/{id}', { params: { path: { id: written._id } } }));
  return { id: file._id, data: file.data };
}

/** 15. Run a command on a host through the master. */
export async function uptime(
  client: FleetClient,
  host: string,
): Promise<{ jid: string; outputs: Array<Record<string, unknown>> }> {
  const result = await ok(
    client.POST('/api/hosts/{id}', {
      params: { path: { id: host } },
      body: { exec_client: 'local', fun: 'cmd.run', kwarg: { cmd: 'uptime' } },
    }),
  );
  return { jid: result.task_id, outputs: result.return.return };
}

/** 16. An organization with its VPN manager embedded: a string id, or the manager itself. */
export async function managerOf(client: FleetClient, org: string): Promise<string | null | undefined> {
  const item = await ok(
    client.GET('/api/vpn_organizations/{id}', {
      params: { path: { id: org }, query: { embedded: JSON.stringify({ vpn_manager: 1 }) } },
    }),
  );
  const manager = item.vpn_manager;
  return typeof manager === 'object' && manager !== null ? manager.name : manager;
}

/** 17. Create a group with static members; 18. a 422 read as typed `_issues`. */
export async function groupOf(
  client: FleetClient,
  hosts: string[],
): Promise<{ id: string; refused: unknown }> {
  const written = await createOne(client, '/api/groups', { name: 'web', type: 0, hosts });
  const refused = await client.POST('/api/groups', { body: { name: '' } });
  const error = refused.error;
  return { id: written._id, refused: error !== undefined && '_issues' in error ? error._issues : undefined };
}

/** 19. Several tasks in one call, all or nothing. */
export async function twoTasks(client: FleetClient): Promise<string[]> {
  const base = { fun: 'test.ping', start: '2030-01-01 04:30', tgt: ['*'] };
  const written = await createMany(client, '/api/tasks', [
    { ...base, name: 'ping 1' },
    { ...base, name: 'ping 2' },
  ]);
  return written.map((w) => w._id);
}

/** 20. The hosts online over a period, point by point. */
export async function onlinePoints(client: FleetClient): Promise<number> {
  const points = await ok(
    client.GET('/api/hosts/statistics/online', {
      params: { query: { 'range[]': ['2026-01-01T00:00:00Z', '2031-01-01T00:00:00Z'] } },
    }),
  );
  return points.length;
}

/** 21. Settings in the spec's flat form; 22. alerts read and marked read in one call. */
export async function settingsAndAlerts(
  client: FleetClient,
): Promise<{ resolver: string | undefined; unread: number }> {
  await ok(
    client.PATCH('/api/settings/{id}', {
      params: { path: { id: '0' } },
      body: { resolver_address: 'http://resolver.fleet.test/ip' },
    }),
  );
  const settings = await ok(client.GET('/api/settings/{id}', { params: { path: { id: '0' } } }));
  const alerts = await ok(
    client.GET('/api/alerts', {
      params: { query: { mark_as_read: true, where: where<Schemas['Alert']>({ read: false }) } },
    }),
  );
  return {
    resolver: settings.addresses?.resolver_address,
    unread: alerts._items.filter((a) => a.read === false).length,
  };
}

/** 23. A failed call as an exception with the API's status and message. */
export async function missingHost(
  client: FleetClient,
): Promise<{ status: number; message: string | undefined }> {
  try {
    await ok(client.GET('/api/hosts/{id}', { params: { path: { id: 'no-such-host.fleet.test' } } }));
    return { status: 200, message: undefined };
  } catch (err) {
    if (!(err instanceof FleetApiError)) throw err;
    return { status: err.status, message: err.body?._error.message };
  }
}

/**
 * Mistakes the types refuse (each line would compile without its `@ts-expect-error`, and tsc
 * fails on a directive that suppresses nothing). Compiled, never run.
 */
export function refusedByTheTypes(client: FleetClient): void {
  // @ts-expect-error a host's status is up or down
  where<Host>({ status: 'sideways' });
  // @ts-expect-error a host's status is set by the sync
  void client.PATCH('/api/hosts/{id}', { params: { path: { id: 'h' } }, body: { status: 'up' } });
  // @ts-expect-error `next` is server-set: a PATCH body cannot carry it
  void client.PATCH('/api/tasks/{id}', { params: { path: { id: 't' } }, body: { next: 'now' } });
  // @ts-expect-error a task needs its function
  void createOne(client, '/api/tasks', { name: 'nothing', start: '2030-01-01 04:30', tgt: ['*'] });
  void client.POST('/api/hosts/{id}', {
    params: { path: { id: 'h' } },
    // @ts-expect-error runner is not a client the API proxies
    body: { exec_client: 'runner', fun: 'manage.status' },
  });
  // @ts-expect-error files take no JSON create: their data is uploaded (upload(), multipart)
  void createOne(client, '/api/files', { name: 'x' });
  // @ts-expect-error actions are recorded by the service, never created by a client
  void client.POST('/api/actions', { body: {} });
}
