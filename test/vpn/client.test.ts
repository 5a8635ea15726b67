/**
 * The VPN client against the simulator over real HTTP, on every tested Pritunl release:
 * organizations, users and profiles as the integration will use them (create, read, update
 * keeping every other field, delete, "already gone"), the server's traps the client must not
 * fall into (a 500 for a missing organization, user routes that ignore the organization,
 * malformed ids, deleting an organization that would stop VPN servers, names filtered by
 * release, profiles at `/key` before 1.32.4465.96), and one login for many calls.
 */
import { Unprocessable } from '@fleet/engine';
import { createVpnClient, filterName, VpnAttached, VpnMissing, type VpnClient } from '@fleet/vpn';
import { CHANGES, startVpnSim, TESTED_VERSIONS, versionInt, type VpnSim } from '@fleet/vpn-sim';

describe.each(TESTED_VERSIONS)('Pritunl %s', (version) => {
  let sim: VpnSim;
  let vpn: VpnClient;
  let serverId: string;
  const since = (change: keyof typeof CHANGES): boolean => versionInt(version) >= versionInt(CHANGES[change]);

  beforeAll(async () => {
    sim = await startVpnSim({
      seed: 7,
      version,
      servers: [{ name: 'gw1' }, { name: 'gw2', groups: ['ops'] }],
    });
    vpn = createVpnClient({ manager: { name: 'vpn1', dashboard_address: sim.url, ...sim.credentials } });
    serverId = [...sim.state.servers.values()][0]?.id ?? '';
  });

  afterAll(async () => {
    await vpn.close();
    await sim.close();
  });

  describe('organizations', () => {
    test('create answers the server representation; the name is stored as the server filters it', async () => {
      const org = await vpn.createOrganization({ name: 'Ops Team #1' });
      expect(org).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'OpsTeam#1',
        auth_api: false,
        auth_token: null,
        auth_secret: null,
        user_count: 0,
        ...(since('expiration') ? { expiration: expect.any(String) } : {}),
      });
      expect(filterName('Ops Team #1')).toBe(org.name);
      expect(sim.state.organizations.get(org.id)?.name).toBe('OpsTeam#1');
      expect(await vpn.getOrganization(org.id)).toEqual(org);
      expect((await vpn.findOrganizations('Ops Team #1')).map((o) => o.id)).toEqual([org.id]);
      expect((await vpn.listOrganizations()).map((o) => o.id)).toContain(org.id);
    });

    test("names follow the release's filter: `%`, `{`, `}` and backticks are kept until 1.32.4278.45", async () => {
      const org = await vpn.createOrganization({ name: 'web{1} 100%' });
      const stored = since('nameFilter') ? 'web1100' : 'web{1}100%';
      expect([org.name, sim.state.organizations.get(org.id)?.name]).toEqual([stored, stored]);
      expect(await vpn.storedName('web{1} 100%')).toBe(stored);
      expect((await vpn.findOrganizations('web{1} 100%')).map((o) => o.id)).toEqual([org.id]);
      const user = await vpn.createUser(org.id, { name: 'db`{2}`' });
      expect((await vpn.findUsers(org.id, 'db`{2}`'))?.map((u) => u.id)).toEqual([user.id]);
    });

    test('auth_api: the organization gets a 32-character token and secret', async () => {
      const org = await vpn.createOrganization({ name: 'api-org', auth_api: true });
      expect(org.auth_token).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(org.auth_secret).toMatch(/^[A-Za-z0-9]{32}$/);
    });

    test('a missing organization (the server answers 500) reads as null and deletes as absent', async () => {
      const org = await vpn.createOrganization({ name: 'short-lived' });
      expect(await vpn.deleteOrganization(org.id)).toBe('deleted');
      expect(sim.state.organizations.has(org.id)).toBe(false);
      expect(await vpn.deleteOrganization(org.id)).toBe('absent');
      expect(await vpn.getOrganization(org.id)).toBeNull();
    });

    test('one attached to VPN servers is not deleted (409 naming them): the server would stop them', async () => {
      const org = await vpn.createOrganization({ name: 'attached' });
      const [gw1, gw2] = [...sim.state.servers.values()];
      sim.controls.attach(gw1?.id ?? '', org.id);
      sim.controls.attach(gw2?.id ?? '', org.id);
      sim.controls.setServerStatus(gw1?.id ?? '', 'online');
      const err: unknown = await vpn.deleteOrganization(org.id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VpnAttached);
      expect(err).toMatchObject({
        status: 409,
        servers: [
          expect.objectContaining({ name: 'gw1', status: 'online' }),
          expect.objectContaining({ name: 'gw2' }),
        ],
        message: expect.stringContaining('"gw1" (online), "gw2" (offline)'),
      });
      expect(sim.state.organizations.has(org.id)).toBe(true);
      expect(gw1?.status).toBe('online');
      expect((await vpn.serversOf(org.id)).map((s) => s.name)).toEqual(['gw1', 'gw2']);
      sim.controls.setServerStatus(gw1?.id ?? '', 'offline');
      for (const s of [gw1, gw2]) if (s) s.organizations = s.organizations.filter((o) => o !== org.id);
      expect(await vpn.deleteOrganization(org.id)).toBe('deleted');
    });

    test('a malformed id is refused before any request (the server would act on "none")', async () => {
      const before = sim.controls.stats.requests;
      await expect(vpn.deleteOrganization('not-an-id')).rejects.toBeInstanceOf(Unprocessable);
      await expect(
        vpn.getUser('5F1C0C7A9F1B2A0012345678', '5f1c0c7a9f1b2a0012345678'),
      ).rejects.toBeInstanceOf(Unprocessable);
      expect(sim.controls.stats.requests).toBe(before);
    });
  });

  describe('users', () => {
    test('create answers the user record with the server defaults', async () => {
      const org = await vpn.createOrganization({ name: 'users-1' });
      const user = await vpn.createUser(org.id, { name: 'web 01.fleet' });
      expect(user).toMatchObject({
        organization: org.id,
        organization_name: 'users-1',
        name: 'web01.fleet',
        email: '',
        groups: [],
        pin: false,
        type: 'client',
        auth_type: 'local',
        yubico_id: null,
        disabled: false,
        bypass_secondary: false,
        client_to_client: false,
        mac_addresses: null,
        dns_servers: null,
        dns_suffix: null,
        port_forwarding: [],
      });
      expect('last_active' in user).toBe(since('yubicoAnyType'));
      expect(user.otp_secret).toMatch(/^[A-Z2-7]{16}$/);
      expect(await vpn.getUser(org.id, user.id)).toEqual({ ...user, network_links: [] });
      expect((await vpn.getOrganization(org.id))?.user_count).toBe(1);
    });

    test('update changes only what it is given: PUT gets the whole record, network links and PIN included', async () => {
      const org = await vpn.createOrganization({ name: 'users-2' });
      const user = await vpn.createUser(org.id, {
        name: 'db01',
        email: 'db01@example.com',
        groups: ['ops', 'db'],
        network_links: ['10.8.0.0/24'],
        pin: '123456',
        dns_servers: ['10.0.0.2'],
      });
      const updated = await vpn.updateUser(org.id, user.id, { disabled: true });
      expect(updated).toMatchObject({
        name: 'db01',
        email: 'db01@example.com',
        disabled: true,
        pin: true,
        dns_servers: ['10.0.0.2'],
        network_links: ['10.8.0.0/24'],
      });
      expect(new Set(updated.groups)).toEqual(new Set(['ops', 'db']));
      expect(sim.state.users.get(user.id)).toMatchObject({
        pin: '123456',
        network_links: ['10.8.0.0/24'],
        disabled: true,
      });
      const renamed = await vpn.updateUser(org.id, user.id, { name: 'db02', pin: null });
      expect(renamed).toMatchObject({ name: 'db02', pin: false, disabled: true });
    });

    test('users of another organization are not found through this one (the server would act on them)', async () => {
      const a = await vpn.createOrganization({ name: 'org-a' });
      const b = await vpn.createOrganization({ name: 'org-b' });
      const user = await vpn.createUser(a.id, { name: 'shared-name' });
      expect(await vpn.getUser(b.id, user.id)).toBeNull();
      expect(await vpn.deleteUser(b.id, user.id)).toBe('absent');
      expect(sim.state.users.has(user.id)).toBe(true);
      await expect(vpn.updateUser(b.id, user.id, { disabled: true })).rejects.toBeInstanceOf(VpnMissing);
      expect(sim.state.users.get(user.id)?.disabled).toBe(false);
    });

    test('delete, then delete again: deleted, then absent', async () => {
      const org = await vpn.createOrganization({ name: 'users-3' });
      const user = await vpn.createUser(org.id, { name: 'tmp' });
      expect(await vpn.deleteUser(org.id, user.id)).toBe('deleted');
      expect(await vpn.deleteUser(org.id, user.id)).toBe('absent');
      expect(await vpn.getUser(org.id, user.id)).toBeNull();
    });

    test('list: clients only unless server users are asked for; null once the organization is gone', async () => {
      const org = await vpn.createOrganization({ name: 'users-4' });
      sim.controls.attach(serverId, org.id);
      await vpn.createUser(org.id, { name: 'b-host' });
      await vpn.createUser(org.id, { name: 'a-host' });
      expect((await vpn.listUsers(org.id))?.map((u) => u.name)).toEqual(['a-host', 'b-host']);
      expect((await vpn.listUsers(org.id, { includeServerUsers: true }))?.map((u) => u.type)).toEqual([
        'client',
        'client',
        'server',
      ]);
      expect((await vpn.findUsers(org.id, 'a-host'))?.map((u) => u.name)).toEqual(['a-host']);
      expect(await vpn.findUsers(org.id, 'a host')).toEqual([]);
      sim.state.organizations.delete(org.id);
      expect(await vpn.listUsers(org.id)).toBeNull();
      expect(await vpn.findUsers(org.id, 'a-host')).toBeNull();
    });

    test('creating a user in an organization that is gone throws VpnMissing (502)', async () => {
      const org = await vpn.createOrganization({ name: 'users-5' });
      await vpn.deleteOrganization(org.id);
      const err: unknown = await vpn.createUser(org.id, { name: 'x' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VpnMissing);
      expect(err).toMatchObject({
        status: 502,
        kind: 'organization',
        id: org.id,
        message: expect.stringContaining('VPN manager "vpn1"'),
      });
    });
  });

  describe('profiles', () => {
    test('the .tar holds one .ovpn per attached server the user may use, wherever the release serves it', async () => {
      const org = await vpn.createOrganization({ name: 'prof' });
      const [gw1, gw2] = [...sim.state.servers.values()];
      sim.controls.attach(gw1?.id ?? '', org.id);
      sim.controls.attach(gw2?.id ?? '', org.id);
      const plain = await vpn.createUser(org.id, { name: 'h1' });
      const ops = await vpn.createUser(org.id, { name: 'h2', groups: ['ops'] });
      const before = { ...sim.controls.stats.byRoute };
      const p1 = await vpn.getProfile(org.id, plain.id);
      expect(p1?.filename).toBe('h1.tar');
      expect(p1?.files.map((f) => f.name)).toEqual(['prof_h1_gw1.ovpn']);
      expect(p1?.files[0]?.content).toMatch(/^remote 127\.0\.0\.1 1194 udp$/m);
      expect(p1?.files[0]?.content).toContain('<key>');
      expect((await vpn.getProfile(org.id, ops.id))?.files.map((f) => f.name)).toEqual([
        'prof_h2_gw1.ovpn',
        'prof_h2_gw2.ovpn',
      ]);
      // Before 1.32.4465.96: `/data` once (gin's 404), then `/key` for both downloads.
      const calls = (route: string): number =>
        (sim.controls.stats.byRoute[route] ?? 0) - (before[route] ?? 0);
      expect([calls('GET /data/:org_id/:file'), calls('GET /key/:org_id/:file')]).toEqual(
        since('dataRoutes') ? [2, 0] : [1, 2],
      );
    });

    test('long and non-ASCII names come back whole (the PAX path record)', async () => {
      const org = await vpn.createOrganization({ name: 'Örg-ünïcode' });
      sim.controls.attach(serverId, org.id);
      const name = `${'host-'.repeat(22)}é`;
      const user = await vpn.createUser(org.id, { name });
      const files = (await vpn.getProfile(org.id, user.id))?.files.map((f) => f.name);
      expect(files).toEqual([`Örg-ünïcode_${name}_gw1.ovpn`]);
    });

    test('without an attached server the archive is empty; a missing user has no profile', async () => {
      const org = await vpn.createOrganization({ name: 'prof-empty' });
      const user = await vpn.createUser(org.id, { name: 'h3' });
      expect((await vpn.getProfile(org.id, user.id))?.files).toEqual([]);
      await vpn.deleteUser(org.id, user.id);
      expect(await vpn.getProfile(org.id, user.id)).toBeNull();
    });
  });

  describe('servers', () => {
    test('an organization attaches to an offline server; an online one refuses (502 naming the reason)', async () => {
      const org = await vpn.createOrganization({ name: 'attach' });
      const servers = await vpn.listServers();
      expect(servers.map((s) => s.name)).toEqual(['gw1', 'gw2']);
      await vpn.attachOrganization(serverId, org.id);
      expect(sim.state.servers.get(serverId)?.organizations).toContain(org.id);
      sim.controls.setServerStatus(serverId, 'online');
      const org2 = await vpn.createOrganization({ name: 'attach-2' });
      await expect(vpn.attachOrganization(serverId, org2.id)).rejects.toMatchObject({
        status: 502,
        message: expect.stringContaining('server_not_offline'),
      });
      sim.controls.setServerStatus(serverId, 'offline');
    });
  });

  test('the session is reused: one login for every call of this release', () => {
    expect(sim.controls.stats.logins).toBe(1);
    expect(sim.controls.stats.unauthorized).toBe(0);
  });
});
