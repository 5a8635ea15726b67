/**
 * Servers and their organizations (handlers/server.py; pritunl/handlers/server.py): attach and detach need the
 * server offline (400 `server_not_offline`), attaching creates the organization's
 * `type: server` user, and operations start or stop it. An unknown server is a 500.
 */
import type { Call, SimContext } from './context';
import type { SimServer } from './model';
import { argId } from './orgs';
import { abort, appError, jsonify, type SimResponse } from './wire';

/**
 * A subset of `Server.dict()` (server/server.py): the fields a client of the simulator needs.
 * It has no `organizations`: which organizations a server holds is `GET /server/<id>/organization`.
 */
export function serverDict(server: SimServer): Record<string, unknown> {
  return {
    id: server.id,
    name: server.name,
    status: server.status,
    port: server.port,
    protocol: server.protocol,
    groups: [...server.groups],
  };
}

function server(ctx: SimContext, call: Call): SimServer | undefined {
  return ctx.state.servers.get(argId(call.params.server_id) ?? '');
}

/** `GET /server`: the list sorted by name (`iter_servers` sorts on `name`; `?page=` is not simulated). */
export function serversGet(ctx: SimContext, call: Call): SimResponse {
  if (call.params.server_id !== undefined) {
    const s = server(ctx, call);
    return s === undefined ? abort(500) : jsonify(serverDict(s));
  }
  const sorted = [...ctx.state.servers.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return jsonify(sorted.map(serverDict));
}

/**
 * `GET /server/<id>/organization`: `[{id, name, server}]` (`get_org_fields` matches the
 * organizations that exist: a stale reference left by an organization's `remove()` is not listed).
 */
export function serverOrgsGet(ctx: SimContext, call: Call): SimResponse {
  const s = server(ctx, call);
  if (s === undefined) return abort(500);
  const orgs = s.organizations.map((id) => ctx.state.organizations.get(id)).filter((o) => o !== undefined);
  return jsonify(orgs.map((o) => ({ id: o.id, server: s.id, name: o.name })));
}

/** Attaches without the HTTP checks (used by the route and by the test controls). */
export function attach(ctx: SimContext, s: SimServer, orgId: string): void {
  if (s.organizations.includes(orgId)) return;
  s.organizations.push(orgId);
  const serverUser = `server_${s.id}`;
  const exists = [...ctx.state.users.values()].some((u) => u.orgId === orgId && u.name === serverUser);
  if (exists) return;
  const id = ctx.gen.id();
  ctx.state.users.set(id, {
    id,
    orgId,
    name: serverUser,
    email: null,
    groups: [],
    pin: null,
    type: 'server',
    auth_type: 'local',
    yubico_id: null,
    otp_secret: ctx.gen.otpSecret(),
    disabled: false,
    bypass_secondary: false,
    client_to_client: false,
    mac_addresses: null,
    dns_servers: null,
    dns_suffix: null,
    port_forwarding: [],
    network_links: [],
  });
}

const NOT_OFFLINE = {
  attach: 'Server must be offline to attach an organization.',
  detach: 'Server must be offline to detach an organization.',
};

/** `PUT /server/<id>/organization/<org_id>` -> `{id, server, name}`. */
export function serverOrgPut(ctx: SimContext, call: Call): SimResponse {
  const s = server(ctx, call);
  const org = ctx.state.organizations.get(argId(call.params.org_id) ?? '');
  if (s === undefined || org === undefined) return abort(500);
  if (s.status === 'online')
    return appError(400, { error: 'server_not_offline', error_msg: NOT_OFFLINE.attach });
  attach(ctx, s, org.id);
  return jsonify({ id: org.id, server: s.id, name: org.name });
}

/** `DELETE /server/<id>/organization/<org_id>` -> `{}`. */
export function serverOrgDelete(ctx: SimContext, call: Call): SimResponse {
  const s = server(ctx, call);
  const orgId = argId(call.params.org_id) ?? '';
  if (s === undefined || !ctx.state.organizations.has(orgId)) return abort(500);
  if (s.status === 'online')
    return appError(400, { error: 'server_not_offline', error_msg: NOT_OFFLINE.detach });
  s.organizations = s.organizations.filter((o) => o !== orgId);
  for (const [id, u] of ctx.state.users)
    if (u.orgId === orgId && u.name === `server_${s.id}`) ctx.state.users.delete(id);
  return jsonify({});
}

/** `PUT /server/<id>/operation/<start|stop|restart>` -> the server dict. */
export function serverOperationPut(ctx: SimContext, call: Call): SimResponse {
  const s = server(ctx, call);
  const op = call.params.operation;
  if (s === undefined || (op !== 'start' && op !== 'stop' && op !== 'restart')) return abort(500);
  s.status = op === 'stop' ? 'offline' : 'online';
  return jsonify(serverDict(s));
}
