/**
 * The typed client of one VPN manager (Pritunl). Reads answer `null` when the item is gone,
 * deletes answer `'absent'`, writes under a missing parent throw `VpnMissing`; everything
 * else the server refuses is a 502, an unreachable server 503, a silent one 504 (errors.ts).
 *
 * The server answers 500, not 404, for a missing organization or user on id routes, and its
 * user routes find a user by id alone, whatever the organization in the path (notes §2, §3,
 * "Checked ... a second time"): the client confirms a 500 with a list or a search before
 * calling anything "absent", and looks users up with `?search=id:<id>`, which is scoped to the
 * organization, before it updates, deletes or downloads anything.
 */
import type { AxiosResponse } from 'axios';
import { BadGateway } from '@fleet/engine';
import { malformed } from './errors';
import { checkId, filterName, searchable } from './names';
import { list, parseOrganization, parseServer, parseUser, searchUsers, ShapeError } from './parse';
import { readTar } from './tar';
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

/** A write found its organization or user gone on the server (502, told apart by `instanceof`). */
export class VpnMissing extends BadGateway {
  constructor(
    manager: string,
    readonly kind: 'organization' | 'user',
    readonly id: string,
  ) {
    super(`VPN manager "${manager}": ${kind} ${id} does not exist on the VPN server`);
  }
}

/** Search results are capped by `limit`; a name lookup asks for this many. */
const NAME_SEARCH_LIMIT = 1000;

export class VpnClient {
  private readonly t: Transport;
  /** The manager's name, as it appears in every error message. */
  readonly manager: string;

  constructor(options: VpnClientOptions) {
    this.t = new Transport(options);
    this.manager = options.manager.name;
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

  /** Organizations whose name is `name` as the server stores it (names are not unique). */
  async findOrganizations(name: string): Promise<VpnOrganization[]> {
    const stored = filterName(name);
    return (await this.listOrganizations()).filter((o) => o.name === stored);
  }

  /** `POST /organization` (200 with the dict). Not idempotent: look up by name before retrying. */
  async createOrganization(input: { name: string; auth_api?: boolean }): Promise<VpnOrganization> {
    const body = await this.json({
      method: 'POST',
      path: '/organization',
      body: { name: input.name, auth_api: input.auth_api ?? false },
      timeout: 'createOrganization',
    });
    return this.shaped('POST /organization', () => parseOrganization(body));
  }

  /** `DELETE /organization/<id>`: also deletes its users on the server. */
  async deleteOrganization(id: string): Promise<DeleteOutcome> {
    checkId(this.manager, 'organization', id);
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
    const stored = filterName(name);
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
    const created = this.shaped(what, () => list(this.t.json(res, what), 'created users').map(parseUser));
    const user = created[0];
    if (user === undefined) throw malformed(this.manager, what, 'no user in the answer');
    return user;
  }

  /**
   * Changes a user. `PUT` resets every field it is not sent (notes §3.4), so the client reads
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

  /**
   * The user's client profile: `GET /data/<org>/<user>.tar` (servers >= 1.32.4465), one
   * `.ovpn` per server the organization is attached to; null when the user is gone.
   */
  async getProfile(orgId: string, userId: string): Promise<VpnProfile | null> {
    if ((await this.getUser(orgId, userId)) === null) return null;
    const path = `/data/${orgId}/${userId}.tar`;
    const res = await this.t.request({ method: 'GET', path, timeout: 'download' });
    if (res.status === 500 && (await this.getUser(orgId, userId)) === null) return null;
    if (res.status !== 200) throw this.t.failure(res, `GET ${path}`);
    const archive = Buffer.from(res.data);
    const files = this.shaped(`GET ${path}`, () => {
      try {
        return readTar(archive);
      } catch (err) {
        throw new ShapeError(err instanceof Error ? err.message : 'unreadable archive');
      }
    });
    const disposition = String(res.headers['content-disposition'] ?? '');
    const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${userId}.tar`;
    return { filename, archive, files };
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

/** The POST body: only the given fields (pritunl-web fills the others with zero values). */
function createBody(input: VpnUserInput): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) body[k] = v;
  return body;
}

interface PutBody extends Record<string, unknown> {
  network_links: string[];
}

/** The whole record for PUT: the current user with `changes` applied; `pin: true` keeps a PIN. */
function putBody(current: VpnUser, changes: VpnUserChanges): PutBody {
  const merged = { ...current, ...changes };
  return {
    name: merged.name,
    email: merged.email ?? '',
    auth_type: merged.auth_type,
    yubico_id: merged.yubico_id ?? '',
    groups: merged.groups,
    pin: changes.pin !== undefined ? changes.pin : current.pin,
    disabled: merged.disabled,
    network_links: changes.network_links ?? current.network_links ?? [],
    bypass_secondary: merged.bypass_secondary,
    client_to_client: merged.client_to_client,
    mac_addresses: merged.mac_addresses,
    dns_servers: merged.dns_servers,
    dns_suffix: merged.dns_suffix ?? '',
    port_forwarding: merged.port_forwarding,
  };
}
