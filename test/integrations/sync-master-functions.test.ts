/**
 * The sync against a master that answers but whose runner fails. A fresh master with only
 * pending keys (the moment an operator first opens the service) makes 2018.3's `manage.status`
 * raise a ValueError (salt/runners/manage.py `status` unpacks `_ping`'s `{}`): that is "no
 * accepted minion", and the pending hosts are listed. Any other runner exception is told apart
 * from an unreachable master: a `master.function_failed` warning, the master still reachable.
 */
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { auth, type TestServer } from '../helpers';
import { saltEnv, SALT_USER, startApi, syncNow } from './master-env';

type Doc = Record<string, unknown>;

async function alertsOf(api: TestServer, type: string): Promise<Doc[]> {
  const res = await api.request
    .get('/api/alerts')
    .query({ where: JSON.stringify({ type }) })
    .set(auth('viewer'));
  expect(res.status).toBe(200);
  return (res.body as { _items: Doc[] })._items;
}

describe.each(['2018.3.2', '2019.2.0', '3006.9'])('Salt %s', (masterVersion) => {
  let sim: SaltSim;
  let api: TestServer;

  beforeAll(async () => {
    sim = await startSaltSim({ hosts: 4, seed: 9, users: [SALT_USER], masterVersion, returnDelayMs: 2 });
    // A freshly installed master: every minion has presented its key, none is accepted yet.
    for (const m of sim.fleet.minions.values()) {
      m.key = 'pending';
      m.up = false;
    }
    api = await startApi({ ...saltEnv(sim), SYNC_INTERVAL_S: '3600' });
  });

  afterAll(async () => {
    await api.close();
    await sim.close();
  });

  test('a master with only pending keys syncs: no accepted minion, every host listed as pending', async () => {
    const report = await syncNow(api);
    expect(report).toMatchObject({ masterReachable: true, hostsSeen: sim.fleet.minions.size });
    const hosts = await api.request.get('/api/hosts').set(auth('viewer'));
    const items = (hosts.body as { _items: Doc[] })._items;
    expect(items).toHaveLength(sim.fleet.minions.size);
    expect(new Set(items.map((h) => h['key']))).toEqual(new Set(['pending']));
    expect(await alertsOf(api, 'master.unreachable')).toEqual([]);
  });

  test('a runner that raises is a master.function_failed warning, once; the master stays reachable', async () => {
    sim.controls.raiseIn('config.get', { pyClass: 'KeyError', message: "'nodegroups'" });
    try {
      const report = await syncNow(api);
      expect(report).toMatchObject({ masterReachable: true, failed: expect.stringContaining('config.get') });
      expect((await syncNow(api))['alertsRaised']).toBe(0);
    } finally {
      sim.controls.raiseIn('config.get', null);
    }
    const [failed, ...more] = await alertsOf(api, 'master.function_failed');
    expect(more).toEqual([]);
    expect(failed).toMatchObject({
      level: 'warning',
      payload: expect.objectContaining({
        function: 'runner config.get',
        message: expect.stringContaining('KeyError'),
      }),
    });
    expect(await alertsOf(api, 'master.unreachable')).toEqual([]);
    expect(await syncNow(api)).toMatchObject({ masterReachable: true });
  });
});
