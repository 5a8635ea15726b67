/**
 * Organization routes (handlers/org.py; pritunl/handlers/org.py): the dict, the list sorted by name (with
 * `?page=`, 5 per page), POST answering 200 with the dict, PUT, and DELETE with its side
 * effects. A missing organization makes the handler dereference None: 500, not 404.
 */
import { since, type Call, type SimContext } from './context';
import { pyDate, type SimOrg } from './model';
import { abort, filterStr, jsonify, pyInt, type SimResponse } from './wire';

/** `org_page_count`. */
const ORG_PAGE_COUNT = 5;
/** `default_days = 7300` of the CA (constants.py CERT_CONF). */
const CA_DAYS_MS = 7300 * 86_400_000;

/**
 * before_request.py rewrites route arguments ending in `_id`: longer than 10 characters ->
 * `ObjectId` or None when that fails; shorter ones stay strings (and match nothing).
 */
export function argId(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.length <= 10) return value;
  return /^[0-9a-fA-F]{24}$/.test(value) ? value.toLowerCase() : null;
}

/** `Organization.user_count`: its `type: client` users. */
export function clientCount(ctx: SimContext, orgId: string): number {
  let count = 0;
  for (const u of ctx.state.users.values()) if (u.orgId === orgId && u.type === 'client') count += 1;
  return count;
}

/** `Organization.dict()`; `expiration` from 1.32.4399.86. */
export function orgDict(ctx: SimContext, org: SimOrg): Record<string, unknown> {
  return {
    id: org.id,
    name: org.name,
    auth_api: org.auth_api,
    auth_token: org.auth_token,
    auth_secret: org.auth_secret,
    user_count: clientCount(ctx, org.id),
    ...(since(ctx, 'expiration') ? { expiration: org.expiration } : {}),
  };
}

/** `get_org_page_total` / `Organization.page_total`: floor(max(0, n - 1) / per page). */
export function pageTotal(count: number, perPage: number): number {
  return Math.floor(Math.max(0, count - 1) / perPage);
}

function sortedOrgs(ctx: SimContext): SimOrg[] {
  return [...ctx.state.organizations.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

/** `GET /organization[/<org_id>]`: a None id (malformed) falls through to the list. */
export function orgGet(ctx: SimContext, call: Call): SimResponse {
  const id = argId(call.params.org_id);
  if (id !== null) {
    const org = ctx.state.organizations.get(id);
    return org === undefined ? abort(500) : jsonify(orgDict(ctx, org));
  }
  const orgs = sortedOrgs(ctx);
  const pageText = call.query.page;
  if (!pageText) return jsonify(orgs.map((o) => orgDict(ctx, o)));
  // `int(page)` raising, or a negative skip (pymongo's ValueError): an unhandled exception.
  const page = pyInt(pageText);
  if (page === undefined || page < 0) return abort(500);
  const slice = orgs.slice(page * ORG_PAGE_COUNT, (page + 1) * ORG_PAGE_COUNT);
  return jsonify({
    page,
    page_total: pageTotal(orgs.length, ORG_PAGE_COUNT),
    organizations: slice.map((o) => orgDict(ctx, o)),
  });
}

/** A new organization; with `auth_api`, a token and a secret are generated. */
function newOrg(ctx: SimContext, name: string, authApi: boolean): SimOrg {
  const org: SimOrg = {
    id: ctx.gen.id(),
    name,
    auth_api: authApi,
    auth_token: authApi ? ctx.gen.secret() : null,
    auth_secret: authApi ? ctx.gen.secret() : null,
    expiration: pyDate(ctx.clock.now() + CA_DAYS_MS),
  };
  ctx.state.organizations.set(org.id, org);
  return org;
}

/** `POST /organization`: only `name` and `auth_api` reach Flask (orgPostData); 200, not 201. */
export async function orgPost(ctx: SimContext, call: Call): Promise<SimResponse> {
  // The CA's RSA key is generated synchronously: creation takes seconds on a real server.
  if (ctx.settings.orgCreateDelayMs > 0)
    await new Promise((r) => setTimeout(r, ctx.settings.orgCreateDelayMs));
  const org = newOrg(ctx, filterStr(ctx, String(call.json.name)), call.json.auth_api === true);
  return jsonify(orgDict(ctx, org));
}

/**
 * `PUT /organization/<org_id>`: the name is always re-set (omitted -> ""), `auth_api` false
 * clears the token and secret; then `auth_token`/`auth_secret` true regenerate them, whatever
 * `auth_api` says (`org_put`). A malformed id reads as None: `Organization(id=None)` and its
 * `commit()` upsert a new document.
 */
export function orgPut(ctx: SimContext, call: Call): SimResponse {
  const id = argId(call.params.org_id);
  const name = filterStr(ctx, String(call.json.name));
  if (id === null) return jsonify(orgDict(ctx, newOrg(ctx, name, false)));
  const org = ctx.state.organizations.get(id);
  if (org === undefined) return abort(500);
  org.name = name;
  org.auth_api = call.json.auth_api === true;
  if (org.auth_api) {
    org.auth_token ??= ctx.gen.secret();
    org.auth_secret ??= ctx.gen.secret();
  } else {
    org.auth_token = null;
    org.auth_secret = null;
  }
  if (call.json.auth_token === true) org.auth_token = ctx.gen.secret();
  if (call.json.auth_secret === true) org.auth_secret = ctx.gen.secret();
  return jsonify(orgDict(ctx, org));
}

/**
 * `DELETE /organization/<org_id>` -> `{}` (organization.py `remove()`, the same from 1.30 to
 * 1.34): removes the users, stops every online server the organization is attached to
 * (`server.stop()`, nothing restarts them), and detaches it from one server only (`update` /
 * `update_one` with `$pull`, not multi): the others keep a stale reference. A malformed id
 * does nothing.
 */
export function orgDelete(ctx: SimContext, call: Call): SimResponse {
  const id = argId(call.params.org_id);
  if (id === null) return jsonify({});
  const org = ctx.state.organizations.get(id);
  if (org === undefined) return abort(500);
  const attached = [...ctx.state.servers.values()].filter((s) => s.organizations.includes(id));
  for (const s of attached) if (s.status === 'online') s.status = 'offline';
  const first = attached[0];
  if (first !== undefined) first.organizations = first.organizations.filter((o) => o !== id);
  for (const [uid, u] of ctx.state.users) if (u.orgId === id) ctx.state.users.delete(uid);
  ctx.state.organizations.delete(id);
  return jsonify({});
}
