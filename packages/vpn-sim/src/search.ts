/**
 * `GET /user/<org_id>` without a user id (organization.py `iter_users`, handlers/user.py
 * `user_get`): the whole list (clients by name, then `type: server` users), `?page=N` (10 a
 * page), or `?search=` with its `id:`, `type:`, `group:`, `email:` and `status:` prefixes,
 * the rest a case-insensitive substring of the name, scoped to the organization.
 */
import type { Call, SimContext } from './context';
import type { SimOrg, SimUser } from './model';
import { userReadDict } from './users';
import { abort, jsonify, type SimResponse } from './wire';

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

/** Users of the organization matching a search: clients first; server users unless `id:`/`type:` narrowed it. */
function searched(orgUsers: SimUser[], spec: Spec): SimUser[] {
  const typed = spec.id !== undefined || spec.type !== undefined;
  const first = orgUsers.filter((u) => u.type === (spec.type ?? 'client') && matches(u, spec)).sort(byName);
  if (typed) return first;
  return [...first, ...orgUsers.filter((u) => u.type === 'server' && matches(u, spec)).sort(byName)];
}

/** Lists, pages or searches the users of `org`. */
export function searchUsers(ctx: SimContext, call: Call, org: SimOrg): SimResponse {
  const orgUsers = [...ctx.state.users.values()].filter((u) => u.orgId === org.id);
  const serverCount = [...ctx.state.servers.values()].filter((s) => s.organizations.includes(org.id)).length;
  const render = (list: SimUser[]): Record<string, unknown>[] => list.map((u) => userReadDict(ctx, u, org));
  const search = call.query.search;
  if (search !== undefined) {
    const limit = Number.parseInt(call.query.limit ?? String(PAGE_COUNT), 10);
    if (!Number.isInteger(limit)) return abort(500);
    const spec = parseSearch(search);
    if (spec.status !== undefined && spec.status !== 'online' && spec.status !== 'offline') {
      return jsonify({
        search,
        search_more: false,
        search_limit: limit,
        search_count: 0,
        search_time: 0.001,
        server_count: serverCount,
        users: [],
      });
    }
    const found = searched(orgUsers, spec);
    return jsonify({
      search,
      search_more: limit < found.length,
      search_limit: limit,
      search_count: found.length,
      search_time: 0.001,
      server_count: serverCount,
      users: render(found.slice(0, limit)),
    });
  }
  const all = [
    ...orgUsers.filter((u) => u.type === 'client').sort(byName),
    ...orgUsers.filter((u) => u.type === 'server').sort(byName),
  ];
  if (!call.query.page) return jsonify(render(all));
  const page = Number.parseInt(call.query.page, 10);
  if (!Number.isInteger(page)) return abort(500);
  const clients = orgUsers.filter((u) => u.type === 'client').length;
  return jsonify({
    page,
    page_total: Math.floor(clients / PAGE_COUNT),
    server_count: serverCount,
    users: render(all.slice(page * PAGE_COUNT, (page + 1) * PAGE_COUNT)),
  });
}
