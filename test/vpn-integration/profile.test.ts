/**
 * GET /api/hosts/{id}/vpn_profile against vpn-sim, on every tested Pritunl release (profiles at
 * `/key/...` before 1.32.4465.96, `/data/...` from it): the host's client profile as a download
 * (one server attached: the .ovpn OpenVPN clients import; several: the server's .tar), 409 while
 * the organization is attached to no server (the service does not attach: attaching needs the
 * VPN server stopped), 404 for a host without an account, 502 when the account is gone on the
 * server, 503 when it is down; operators and up.
 */
import { readTar } from '@fleet/vpn';
import { CHANGES, TESTED_VERSIONS, versionInt } from '@fleet/vpn-sim';
import { auth, expectEveError, insertHost } from '../helpers';
import { bytes, createOrg, link, newHost, simSecrets, simUsers, startVpnEnv, type VpnEnv } from './support';

describe.each(TESTED_VERSIONS)('Pritunl %s', (version) => {
  let env: VpnEnv;
  let servers: string[];
  beforeAll(async () => {
    env = await startVpnEnv({
      sim: {
        version,
        servers: [
          { name: 'gw1', port: 1194 },
          { name: 'gw2', port: 1195, protocol: 'tcp' },
        ],
        publicAddress: 'vpn.fleet.test',
      },
    });
    servers = [...env.sim.state.servers.keys()];
  });
  afterAll(() => env.close());

  function profileOf(host: string, role: 'operator' | 'viewer' = 'operator') {
    return env.api.request.get(`/api/hosts/${host}/vpn_profile`).set(auth(role));
  }

  /** The download, its bytes kept. */
  function download(host: string) {
    return env.api.request
      .get(`/api/hosts/${host}/vpn_profile`)
      .set(auth('operator'))
      .buffer(true)
      .parse(bytes);
  }

  async function linkedHost(
    attach: readonly string[],
  ): Promise<{ host: string; org: { id: string; serverId: string; name: string } }> {
    const org = await createOrg(env);
    for (const s of attach) env.sim.controls.attach(s, org.serverId);
    const host = await newHost(env.api);
    expect((await link(env, host, org.id)).status).toBe(200);
    return { host, org };
  }

  it('one server attached: the .ovpn, as an attachment no cache keeps', async () => {
    const { host, org } = await linkedHost([servers[0] ?? '']);
    const res = await download(host);
    expect(res.status).toBe(200);
    const serverOrgName = env.sim.state.organizations.get(org.serverId)?.name ?? '';
    expect(res.headers).toMatchObject({
      'content-type': 'application/x-openvpn-profile',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${serverOrgName}_${host}_gw1.ovpn`)}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const text = (res.body as Buffer).toString('utf8');
    expect(text).toContain('remote vpn.fleet.test 1194 udp');
    expect(text).toContain(`setenv UV_NAME ${host}`);
    expect(text).toMatch(/<key>\n-----BEGIN PRIVATE KEY-----/);
    for (const secret of simSecrets(env.sim)) expect(text).not.toContain(secret);
  });

  it('one server attached, at the route the release serves (/data, else /key after its gin 404 page not found, then /key only)', async () => {
    const { host } = await linkedHost([servers[0] ?? '']);
    const calls = env.proxy.calls.length;
    expect((await download(host)).status).toBe(200);
    expect((await download(host)).status).toBe(200);
    const routes = (list: string[]): string[] =>
      list.filter((c) => c.endsWith('.tar')).map((c) => c.split('/')[1] ?? '');
    const data = versionInt(version) >= versionInt(CHANGES.dataRoutes);
    expect(routes(env.proxy.calls.slice(calls))).toEqual(data ? ['data', 'data'] : ['key', 'key']);
    // Before 1.32.4465.96 the client asked /data once (its first download), then kept to /key.
    expect(routes(env.proxy.calls).filter((r) => r === 'data')).toHaveLength(
      data ? routes(env.proxy.calls).length : 1,
    );
  });

  it('a long, non-ASCII host name: its profile comes back under that name (the PAX path record)', async () => {
    const org = await createOrg(env);
    env.sim.controls.attach(servers[0] ?? '', org.serverId);
    const host = (await insertHost(env.api.store, `${'ünïcode-'.repeat(12)}hôte.fleet.test`))._id;
    expect((await link(env, host, org.id)).status).toBe(200);
    const res = await download(host);
    expect(res.status).toBe(200);
    const serverOrgName = env.sim.state.organizations.get(org.serverId)?.name ?? '';
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent(`${serverOrgName}_${host}_gw1.ovpn`)}`,
    );
  });

  it('two servers attached: the server’s .tar with one profile each', async () => {
    const { host } = await linkedHost(servers);
    const res = await download(host);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'application/x-tar',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${host}.tar`)}`,
    });
    const files = readTar(res.body as Buffer).map((f) => f.name);
    expect(files.sort()).toEqual([
      expect.stringMatching(/_gw1\.ovpn$/),
      expect.stringMatching(/_gw2\.ovpn$/),
    ]);
  });

  it('no server attached: 409 saying an administrator must attach the organization', async () => {
    const { host } = await linkedHost([]);
    expect(expectEveError(await profileOf(host), 409)._error.message).toMatch(/attached to no server/);
  });

  it('a host without an account: 404; an unknown host: 404', async () => {
    const host = await newHost(env.api);
    expect(expectEveError(await profileOf(host), 404)._error.message).toMatch(/no VPN account/);
    expectEveError(await profileOf('no-such-host.fleet.test'), 404);
  });

  it('the account gone on the server: 502 naming it', async () => {
    const { host, org } = await linkedHost([servers[0] ?? '']);
    for (const u of simUsers(env.sim, org.serverId)) env.sim.state.users.delete(u.id);
    expect(expectEveError(await profileOf(host), 502)._error.message).toMatch(
      /does not exist on the VPN server/,
    );
  });

  it('the server down: 503', async () => {
    const { host } = await linkedHost([servers[0] ?? '']);
    await env.sim.controls.down('refuse');
    try {
      expectEveError(await profileOf(host), 503);
    } finally {
      await env.sim.controls.down(false);
    }
  });

  it('needs operator (viewer: 403)', async () => {
    const { host } = await linkedHost([servers[0] ?? '']);
    expectEveError(await profileOf(host, 'viewer'), 403);
  });
});
