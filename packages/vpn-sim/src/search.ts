/**
 * `GET /user/<org_id>` without a user id (organization.py `iter_users`, handlers/user.py
 * `user_get`): the whole list, `?page=N` or `?search=` with its `id:`, `type:`, `group:`,
 * `email:` and `status:` prefixes, the rest a case-insensitive substring of the name (escaped
 * before it becomes a regex), scoped to the organization. pritunl-web forwards `page`, `search`
 * and `limit` only when they are not empty.
 *
 * `iter_users` reads clients first, sorted by name, with `limit` (and `skip` for a page) on
 * that query alone; `search_count` counts the matching clients (`count_documents(spec)` on the
 * client spec). Only when the clients did not overflow the limit does it go on to yield the
 * `type: server` users (all of them, unless `id:`/`type:` narrowed the search).
 */
import type { Call, SimContext } from './context';
import type { SimOrg, SimUser } from './model';
import { clientCount, pageTotal } from './orgs';
import { userReadDict } from './user-dicts';
import { abort, jsonify, pyInt, type SimResponse } from './wire';

/** `settings.user.page_count`. */
const PAGE_COUNT = 10;

const byName = (a: SimUser, b: SimUser): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Takes `prefix:value` out of a search text, as iter_users does (first occurrence). */
function takePrefix(search: string, prefix: string): { value: string; rest: string } {
  const n = search.indexOf(prefix);
  if (n === -1) return { value: '', rest: search };
  const value =
    search
      .slice(n + prefix.length)
      .trim()
      .split(/\s+/)[0] ?? '';
  return { value, rest: (search.slice(0, n) + search.slice(n + prefix.length + value.length)).trim() };
}

interface Spec {
  id?: string;
  type?: string;
  group?: string;
  email?: string;
  status?: string;
  name: string;
}

function parseSearch(text: string): Spec {
  let rest = text;
  const spec: Spec = { name: '' };
  for (const key of ['id', 'type', 'group', 'email', 'status'] as const) {
    const taken = takePrefix(rest, `${key}:`);
    if (taken.value) spec[key] = taken.value;
    rest = taken.rest;
  }
  spec.name = rest.trim().toLowerCase();
  return spec;
}

function matches(user: SimUser, spec: Spec): boolean {
  if (spec.id !== undefined && user.id !== spec.id.toLowerCase()) return false;
  if (spec.group !== undefined && !user.groups.includes(spec.group)) return false;
  if (spec.email !== undefined && !(user.email ?? '').toLowerCase().includes(spec.email.toLowerCase()))
    return false;
  // No client is ever connected to the simulator: everyone is offline.
  if (spec.status === 'online') return false;
  return user.name.toLowerCase().includes(spec.name);
}

/** What `iter_users` yields: at most `limit` clients from `skip`, then the server users if the clients fit. */
function iterUsers(
  clients: readonly SimUser[],
  servers: () => SimUser[],
  window: { skip: number; limit: number | undefined },
): SimUser[] {
  const { skip, limit } = window;
  if (limit === undefined) return [...clients, ...servers()];
  // `cursor.limit(limit + 1)`, and `return` on the (limit + 1)th client: no server users then.
  // A negative limit returns on the first client.
  const page = clients.slice(skip);
  if (limit < 0) return page.length > 0 ? [] : servers();
  if (page.length > limit) return page.slice(0, limit);
  return [...page, ...servers()];
}

interface OrgUsers {
  readonly clients: SimUser[];
  readonly servers: SimUser[];
}

function orgUsers(ctx: SimContext, org: SimOrg): OrgUsers {
  const all = [...ctx.state.users.values()].filter((u) => u.orgId === org.id);
  return {
    clients: all.filter((u) => u.type === 'client').sort(byName),
    servers: all.filter((u) => u.type === 'server').sort(byName),
  };
}

/** The users a spec selects first: clients, or the users of the `type:` searched. */
function pool(users: OrgUsers, spec: Spec): SimUser[] {
  if (spec.type === undefined || spec.type === 'client') return users.clients;
  return spec.type === 'server' ? users.servers : [];
}

/** What a `?search=` yields, and `search_count`; undefined for an unknown `status:` (iter_users returns at once). */
function searched(
  users: OrgUsers,
  search: string,
  limit: number,
): { found: SimUser[]; count: number } | undefined {
  const spec = parseSearch(search);
  if (spec.status !== undefined && spec.status !== 'online' && spec.status !== 'offline') return undefined;
  const typed = spec.id !== undefined || spec.type !== undefined;
  const first = pool(users, spec).filter((u) => matches(u, spec));
  const servers = (): SimUser[] => (typed ? [] : users.servers.filter((u) => matches(u, spec)));
  // `limit = search_limit or page_count`: a limit of 0 reads 10.
  return { found: iterUsers(first, servers, { skip: 0, limit: limit || PAGE_COUNT }), count: first.length };
}

/**
 * Lists, pages or searches the users of `org`. A search decides what iter_users yields even
 * with a page; the answer's shape is the page's when there is one.
 */
export function searchUsers(ctx: SimContext, call: Call, org: SimOrg): SimResponse {
  const users = orgUsers(ctx, org);
  const serverCount = [...ctx.state.servers.values()].filter((s) => s.organizations.includes(org.id)).length;
  const render = (list: SimUser[]): Record<string, unknown>[] => list.map((u) => userReadDict(ctx, u, org));
  const page = call.query.page ? pyInt(call.query.page) : null;
  const limit = call.query.limit ? pyInt(call.query.limit) : PAGE_COUNT;
  // int() raising, or a negative skip (pymongo's ValueError): an unhandled exception.
  if (page === undefined || limit === undefined || (page !== null && page < 0)) return abort(500);
  const search = call.query.search || undefined;
  const result =
    search === undefined
      ? {
          found: iterUsers(users.clients, () => users.servers, {
            skip: (page ?? 0) * PAGE_COUNT,
            limit: page === null ? undefined : PAGE_COUNT,
          }),
          count: 0,
        }
      : (searched(users, search, limit) ?? { found: [], count: 0 });
  if (page !== null) {
    return jsonify({
      page,
      page_total: pageTotal(clientCount(ctx, org.id), PAGE_COUNT),
      server_count: serverCount,
      users: render(result.found),
    });
  }
  if (search === undefined) return jsonify(render(result.found));
  return jsonify({
    search,
    search_more: limit < result.count,
    search_limit: limit,
    search_count: result.count,
    search_time: 0.001,
    server_count: serverCount,
    users: render(result.found),
  });
}
