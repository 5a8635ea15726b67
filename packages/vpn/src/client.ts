/**
 * The typed client of one VPN manager (Pritunl). Reads answer `null` when the item is gone,
 * deletes answer `'absent'`, writes under a missing parent throw `VpnMissing`; everything
 * else the server refuses is a 502, an unreachable server 503, a silent one 504 (errors.ts).
 *
 * The server answers 500, not 404, for a missing organization or user on id routes, and its
 * user routes find a user by id alone, whatever the organization in the path (pritunl/handlers/org.py, pritunl/handlers/user.py,
 * "Checked ... a second time"): the client confirms a 500 with a list or a search before
 * calling anything "absent", and looks users up with `?search=id:<id>`, which is scoped to the
 * organization, before it updates, deletes or downloads anything. Names are compared as the
 * server's release filters them (`GET /state` `version`). An organization attached to a VPN
 * server is not deleted (`VpnAttached`): the server would stop that server.
 */
import type { AxiosResponse } from 'axios';
import { createBody, putBody } from './bodies';
import { VpnAttached, VpnMissing, VpnUnreadableCreate } from './client-errors';
import { malformed } from './errors';
import { checkId, filterName, searchable } from './names';
import { list, parseOrganization, parseServer, parseUser, searchUsers, ShapeError } from './parse';
import { profileOf, ProfileRoutes } from './profile';
import { Transport, type Call } from './transport';
import type {
  DeleteOutcome,
  VpnClientOptions,
  VpnOrganization,
  VpnProfile,
  VpnServer,
  VpnUser,
  VpnUserChanges,
  VpnUserInput,
} from './types';

export { VpnAttached, VpnMissing, VpnUnreadableCreate } from './client-errors';

/** Search results are capped by `limit`; a name lookup asks for this many. */
const NAME_SEARCH_LIMIT = 1000;

export class VpnClient {
  private readonly t: Transport;
  private readonly profiles: ProfileRoutes;
  /** The manager's name, as it appears in every error message. */
  readonly manager: string;

  constructor(options: VpnClientOptions) {
    this.t = new Transport(options);
    this.manager = options.manager.name;
    this.profiles = new ProfileRoutes(this.t);
  }

  private shaped<T>(what: string, read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (err instanceof ShapeError) throw malformed(this.manager, what, err.message);
      throw err;
    }
  }

  private async json(call: Call): Promise<unknown> {
    return this.t.json(await this.t.request(call), `${call.method} ${call.path}`);
  }

  /** `GET /organization`: every organization, sorted by name. */
  async listOrganizations(): Promise<VpnOrganization[]> {
    const body = await this.json({ method: 'GET', path: '/organization', timeout: 'request' });
    return this.shaped('GET /organization', () => list(body, 'organizations').map(parseOrganization));
  }

  /** A 500 on an id route: absent if the list does not have the id, else the server's error. */
  private async absentOrganization(res: AxiosResponse<Buffer>, id: string, what: string): Promise<true> {
    if (res.status !== 500) throw this.t.failure(res, what);
    if ((await this.listOrganizations()).some((o) => o.id === id)) throw this.t.failure(res, what);
    return true;
  }

  /** `GET /organization/<id>`, or null when it does not exist. */
  async getOrganization(id: string): Promise<VpnOrganization | null> {
    checkId(this.manager, 'organization', id);
    const what = `GET /organization/${id}`;
    const res = await this.t.request({ method: 'GET', path: `/organization/${id}`, timeout: 'request' });
    if (res.status === 200) return this.shaped(what, () => parseOrganization(this.t.json(res, what)));
    await this.absentOrganization(res, id, what);
    return null;
  }

  /** `name` as the server's release stores it (`utils.filter_str`; logs in first when needed). */
  async storedName(name: string): Promise<string> {
    return filterName(name, await this.t.release());
  }

  /** Organizations whose name is `name` as the server stores it (names are not unique). */
  async findOrganizations(name: string): Promise<VpnOrganization[]> {
    const stored = await this.storedName(name);
    return (await this.listOrganizations()).filter((o) => o.name === stored);
  }

  /**
   * A create's answer read with `read`; when it cannot be read but names an id, the server made
   * that item: `VpnUnreadableCreate` carries it, so a cleanup deletes that id and no other.
   */
  private created<T>(what: string, read: () => T, id: () => unknown): T {
    try {
      return this.shaped(what, read);
    } catch (err) {
      const made = id();
      if (typeof made === 'string' && /^[0-9a-f]{24}$/.test(made) && err instanceof Error)
        throw new VpnUnreadableCreate(err.message, made);
      throw err;
    }
  }

  /** `POST /organization` (200 with the dict). Not idempotent: look up by name before retrying. */
  async createOrganization(input: { name: string; auth_api?: boolean }): Promise<VpnOrganization> {
    const body = await this.json({
      method: 'POST',
      path: '/organization',
      body: { name: input.name, auth_api: input.auth_api ?? false },
      timeout: 'createOrganization',
    });
    return this.created(
      'POST /organization',
      () => parseOrganization(body),
      () => field(body, 'id'),
    );
  }

  /**
   * The servers the organization is attached to: `GET /server`, then `GET /server/<id>/organization`
   * of each (a server's dict does not list its organizations).
   */
  async serversOf(orgId: string): Promise<VpnServer[]> {
    checkId(this.manager, 'organization', orgId);
    const holding: VpnServer[] = [];
    for (const server of await this.listServers()) {
      checkId(this.manager, 'server', server.id);
      const what = `GET /server/${server.id}/organization`;
      const body = await this.json({
        method: 'GET',
        path: `/server/${server.id}/organization`,
        timeout: 'request',
      });
      const ids = this.shaped(what, () => list(body, 'server organizations').map((o) => field(o, 'id')));
      if (ids.includes(orgId)) holding.push(server);
    }
    return holding;
  }

  /**
   * `DELETE /organization/<id>`: also deletes its users on the server. Refused (`VpnAttached`,
   * 409) while a VPN server holds the organization: the server would stop every online one.
   */
  async deleteOrganization(id: string): Promise<DeleteOutcome> {
    checkId(this.manager, 'organization', id);
    const holding = await this.serversOf(id);
    if (holding.length > 0) throw new VpnAttached(this.manager, id, holding);
    const what = `DELETE /organization/${id}`;
    const res = await this.t.request({ method: 'DELETE', path: `/organization/${id}`, timeout: 'request' });
    if (res.status === 200) return 'deleted';
    await this.absentOrganization(res, id, what);
    return 'absent';
  }

  /** `GET /user/<org>`: client users (with `includeServerUsers`, server certificates too), or null without the organization. */
  async listUsers(orgId: string, options: { includeServerUsers?: boolean } = {}): Promise<VpnUser[] | null> {
    checkId(this.manager, 'organization', orgId);
    const what = `GET /user/${orgId}`;
    const res = await this.t.request({ method: 'GET', path: `/user/${orgId}`, timeout: 'request' });
    if (res.status === 404) return null;
    const users = this.shaped(what, () => list(this.t.json(res, what), 'users').map(parseUser));
    return options.includeServerUsers === true ? users : users.filter((u) => u.type === 'client');
  }

  /** A `?search=` of the organization's users; null when the organization does not exist. */
  private async search(orgId: string, search: string, limit: number): Promise<VpnUser[] | null> {
    const what = `GET /user/${orgId}?search`;
    const res = await this.t.request({
      method: 'GET',
      path: `/user/${orgId}`,
      query: { search, limit: String(limit) },
      timeout: 'request',
    });
    if (res.status === 404) return null;
    return this.shaped(what, () => searchUsers(this.t.json(res, what)).map(parseUser));
  }

  /** The user `userId` of organization `orgId`, or null (either is gone, or the user is another organization's). */
  async getUser(orgId: string, userId: string): Promise<VpnUser | null> {
    checkId(this.manager, 'organization', orgId);
    checkId(this.manager, 'user', userId);
    const found = await this.search(orgId, `id:${userId}`, 1);
    return found?.find((u) => u.id === userId) ?? null;
  }

  /** Client users named `name` as the server stores it; null without the organization. */
  async findUsers(orgId: string, name: string): Promise<VpnUser[] | null> {
    checkId(this.manager, 'organization', orgId);
    const stored = await this.storedName(name);
    const candidates = searchable(stored)
      ? await this.search(orgId, stored, NAME_SEARCH_LIMIT)
      : await this.listUsers(orgId);
    return candidates === null ? null : candidates.filter((u) => u.type === 'client' && u.name === stored);
  }

  /** `POST /user/<org>` with one user; the server answers an array. Not idempotent: after a failure, `findUsers` first. */
  async createUser(orgId: string, input: VpnUserInput): Promise<VpnUser> {
    checkId(this.manager, 'organization', orgId);
    const what = `POST /user/${orgId}`;
    const res = await this.t.request({
      method: 'POST',
      path: `/user/${orgId}`,
      body: createBody(input),
      timeout: 'request',
    });
    if (res.status === 500 && (await this.getOrganization(orgId)) === null)
      throw new VpnMissing(this.manager, 'organization', orgId);
    const body = this.t.json(res, what);
    const created = this.created(
      what,
      () => list(body, 'created users').map(parseUser),
      () => (Array.isArray(body) ? field(body[0], 'id') : undefined),
    );
    const user = created[0];
    if (user === undefined) throw malformed(this.manager, what, 'no user in the answer');
    return user;
  }

  /**
   * Changes a user. `PUT` resets every field it is not sent (pritunl/handlers/user.py), so the client reads
   * the user (network links included), applies `changes` and sends the whole record.
   */
  async updateUser(orgId: string, userId: string, changes: VpnUserChanges): Promise<VpnUser> {
    const current = await this.getUser(orgId, userId);
    if (current === null) throw new VpnMissing(this.manager, 'user', userId);
    const body = putBody(current, changes);
    const what = `PUT /user/${orgId}/${userId}`;
    const res = await this.t.request({
      method: 'PUT',
      path: `/user/${orgId}/${userId}`,
      body,
      timeout: 'request',
    });
    if (res.status === 500 && (await this.getUser(orgId, userId)) === null)
      throw new VpnMissing(this.manager, 'user', userId);
    const user = this.shaped(what, () => parseUser(this.t.json(res, what)));
    return { ...user, network_links: body.network_links };
  }

  /** `DELETE /user/<org>/<id>` after checking the user belongs to the organization. */
  async deleteUser(orgId: string, userId: string): Promise<DeleteOutcome> {
    if ((await this.getUser(orgId, userId)) === null) return 'absent';
    const what = `DELETE /user/${orgId}/${userId}`;
    const res = await this.t.request({
      method: 'DELETE',
      path: `/user/${orgId}/${userId}`,
      timeout: 'request',
    });
    if (res.status === 200) return 'deleted';
    if (res.status === 500 && (await this.getUser(orgId, userId)) === null) return 'absent';
    throw this.t.failure(res, what);
  }

  /** The user's client profile: one `.ovpn` per attached server its groups allow; null when the user is gone. */
  async getProfile(orgId: string, userId: string): Promise<VpnProfile | null> {
    if ((await this.getUser(orgId, userId)) === null) return null;
    const { res, path } = await this.profiles.download(orgId, userId);
    if (res.status === 500 && (await this.getUser(orgId, userId)) === null) return null;
    if (res.status !== 200) throw this.t.failure(res, `GET ${path}`);
    return this.shaped(`GET ${path}`, () => profileOf(res, userId));
  }

  /** `GET /server`. */
  async listServers(): Promise<VpnServer[]> {
    const body = await this.json({ method: 'GET', path: '/server', timeout: 'request' });
    return this.shaped('GET /server', () => list(body, 'servers').map(parseServer));
  }

  /** `PUT /server/<id>/organization/<org>`: the server must be offline (else 502 `server_not_offline`). */
  async attachOrganization(serverId: string, orgId: string): Promise<void> {
    checkId(this.manager, 'server', serverId);
    checkId(this.manager, 'organization', orgId);
    await this.json({ method: 'PUT', path: `/server/${serverId}/organization/${orgId}`, timeout: 'request' });
  }

  /** Logs out and frees the sockets. */
  close(): Promise<void> {
    return this.t.close();
  }
}

/** A string field of an answer's object, or undefined. */
function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}
