/**
 * Names as each tested Pritunl release stores them: `utils.filter_str` keeps `%`, `{`, `}` and
 * backticks until 1.32.4278.45 and drops them since. The service compares names as the server's
 * release (`GET /state` `version`) filters them, so what it stores is the server's name, and a
 * create that failed after the server made it is found by that name and deleted.
 */
import { auth } from '../helpers';
import { CHANGES, TESTED_VERSIONS, versionInt } from '@fleet/vpn-sim';
import { link, orgBody, readHost, simOrgIds, simUsers, startVpnEnv, createOrg, type VpnEnv } from './support';
import { insertHost, uniqueName } from '../helpers';

describe.each(TESTED_VERSIONS)('Pritunl %s', (version) => {
  let env: VpnEnv;
  const narrow = versionInt(version) >= versionInt(CHANGES.nameFilter);
  beforeAll(async () => {
    env = await startVpnEnv({ sim: { version } });
  });
  afterAll(() => env.close());

  it('an organization is stored with the name the server gave it', async () => {
    const { id, serverId } = await createOrg(env, {
      vpnsrv_representation: { name: 'ops {eu} 100%', cipher_type: 'rsa' },
    });
    const stored = narrow ? 'opseu100' : 'ops{eu}100%';
    expect(env.sim.state.organizations.get(serverId)?.name).toBe(stored);
    const item = await env.api.request.get(`/api/vpn_organizations/${id}`).set(auth('viewer'));
    expect(item.body).toMatchObject({ vpnsrv_representation: { id: serverId, name: stored } });
  });

  it('a create the server made but answered 500: found by its stored name and deleted', async () => {
    const before = new Set(simOrgIds(env.sim));
    const name = `${uniqueName('ops')} {eu}`;
    env.proxy.fail({ method: 'POST', path: /^\/organization$/, status: 500, when: 'after' });
    const res = await env.api.request
      .post('/api/vpn_organizations')
      .set(auth('admin'))
      .send(orgBody(env.manager, { name, vpnsrv_representation: { name, cipher_type: 'rsa' } }));
    expect(res.status).toBe(502);
    expect(simOrgIds(env.sim).filter((id) => !before.has(id))).toEqual([]);
  });

  it('an account the server made but answered 500 (a host named with braces): found and deleted', async () => {
    const org = await createOrg(env);
    const host = (await insertHost(env.api.store, `${uniqueName('web')}{1}.fleet.test`))._id;
    env.proxy.fail({ method: 'POST', path: /^\/user\//, status: 500, when: 'after' });
    expect((await link(env, host, org.id)).status).toBe(502);
    expect(simUsers(env.sim, org.serverId)).toEqual([]);
    expect((await readHost(env, host)).vpn_organization ?? null).toBeNull();
    expect((await link(env, host, org.id)).status).toBe(200);
    expect(simUsers(env.sim, org.serverId).map((u) => u.name)).toEqual([
      narrow ? host.replace(/[{}]/g, '') : host,
    ]);
  });
});
