/**
 * The scale-out scenario (rig.test.ts on SQLite, rig-mongo.test.ts on MongoDB): three API
 * processes on one store behind a round-robin balancer, the simulated master and VPN server
 * wired, as a deployment runs. Proved: every duty is held by one instance; a sync or a VPN
 * reconcile asked of any instance runs on the holder; the periodic sync runs on one instance, an
 * interval apart; each event is handled once; each scheduled run runs once; an async execution
 * started on one instance is followed by the others once it is killed (SIGKILL), its duties move
 * to the survivors within the lease time, and nothing acknowledged is lost; monitoring started on
 * one instance is stopped from another; rate limits hold across instances.
 */
import { startSaltSim, type SaltSim } from '@fleet/salt-sim';
import { startVpnSim, type VpnSim } from '@fleet/vpn-sim';
import type { Store } from '../../engine/src';
import { createLogger } from '../../packages/server/src/logger';
import { chooseStore } from '../../packages/server/src/store';
import { TOKENS, vpnManagerBody } from '../helpers';
import { minionIds } from '../helpers/minions';
import { startRig, type Rig, type RigInstance } from '../helpers/rig';
import { until } from '../helpers/until';

/** The lease time of the rig's instances (seconds): a dead instance's duties move within 4/3 of it. */
export const RIG_LEASE_TTL_S = 2;
const SYNC_INTERVAL_S = 2;
/** Executions per token a minute: one token refills every 20 s, far longer than the check takes. */
const EXEC_LIMIT = 3;
const BURST = 'burst-token-0123456789abcdef';
const VPN_ADMIN = { username: 'fleet-api', password: 'vpn-admin-pw-8c2e51d0a7' };
const LEASES = ['fleet-sync', 'salt-events', 'task-scheduler', 'snapshots', 'vpn-reconcile'] as const;

type Json = Record<string, unknown>;

/** One request (a connection of its own to `base`): status and JSON body. */
async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token: string = TOKENS.admin,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

const q = (value: unknown): string => encodeURIComponent(JSON.stringify(value));

/** Lines of `instance` with message `msg` (and `extra` fields). */
function logged(instance: RigInstance, msg: string | RegExp, extra: Json = {}): Json[] {
  return instance
    .lines()
    .filter(
      (l) =>
        (typeof msg === 'string' ? l['msg'] === msg : msg.test(String(l['msg']))) &&
        Object.entries(extra).every(([k, v]) => l[k] === v),
    );
}

/** The scenario against a fresh store: SQLite when `databaseUrl` is undefined. */
export function rigScenario(label: string, databaseUrl?: () => string): void {
  describe(`three instances on one store behind a balancer (${label})`, () => {
    let sim: SaltSim;
    let vpn: VpnSim;
    let rig: Rig;
    let store: Store;

    /** The holder's pid of each lease, read from the `duties` items. */
    const holders = async (): Promise<Record<string, number>> => {
      const items = await store.find('duties', { _id: { $in: [...LEASES] } });
      return Object.fromEntries(items.map((d) => [d._id, Number(String(d['holder']).split(':')[1])]));
    };
    const instanceOf = (pid: number): RigInstance | undefined => rig.instances.find((i) => i.pid === pid);
    const live = (): RigInstance[] =>
      rig.instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);

    beforeAll(async () => {
      sim = await startSaltSim({ hosts: 10, seed: 9, returnDelayMs: 2, noReturnWaitMs: 10 });
      vpn = await startVpnSim({ seed: 13, admins: [VPN_ADMIN] });
      rig = await startRig({
        instances: 3,
        ...(databaseUrl ? { databaseUrl: databaseUrl() } : {}),
        env: {
          LOG_LEVEL: 'debug',
          API_TOKENS: `admin=${TOKENS.admin}:admin,operator=${TOKENS.operator}:operator,burst=${BURST}:operator`,
          SALT_API_URL: sim.url,
          SALT_API_USER: sim.credentials.username,
          SALT_API_PASSWORD: sim.credentials.password,
          SALT_API_EAUTH: sim.credentials.eauth,
          SYNC_INTERVAL_S: String(SYNC_INTERVAL_S),
          LEASE_TTL_S: String(RIG_LEASE_TTL_S),
          VPN_RECONCILE_INTERVAL_S: '3',
          ALL_STATUS_INTERVAL_S: '0.3',
          RATE_LIMIT_EXEC_PER_MIN: String(EXEC_LIMIT),
        },
      });
      store = await chooseStore(rig.databaseUrl, rig.dir).open(createLogger('silent'), { checked: true });
      const synced = await call(rig.url, 'POST', '/api/master/sync');
      expect(synced).toMatchObject({ status: 200, json: { hostsSeen: sim.fleet.minions.size } });
    }, 180_000);

    afterAll(async () => {
      await store?.close();
      await rig?.close();
      await vpn?.close();
      await sim?.close();
    });

    it('holds each duty on one instance, and reads the event stream once', async () => {
      await until(async () => Object.keys(await holders()).length === LEASES.length, 'every duty held');
      const pids = rig.instances.map((i) => i.pid);
      for (const pid of Object.values(await holders())) expect(pids).toContain(pid);
      await until(() => sim.controls.openEventStreams() === 1, 'the event stream open');
      expect(rig.instances.filter((i) => logged(i, 'salt event stream connected').length > 0)).toHaveLength(
        1,
      );
    });

    it('runs a sync asked of any instance on the holder, and the periodic sync on it only', async () => {
      for (const i of rig.instances)
        expect(await call(i.url, 'POST', '/api/master/sync')).toMatchObject({
          status: 200,
          json: { masterReachable: true },
        });
      const syncer = instanceOf((await holders())['fleet-sync'] ?? 0) as RigInstance;
      expect(syncer).toBeDefined();
      const done = (i: RigInstance): Json[] => logged(i, 'fleet sync done');
      // The three asked and three periodic ones: all on the holder, none anywhere else.
      await until(() => done(syncer).length >= 7, 'periodic syncs');
      for (const i of rig.instances) if (i !== syncer) expect(done(i)).toEqual([]);
    });

    it('handles each salt event once, on the one reader', async () => {
      const handled = (): number =>
        rig.instances.reduce((n, i) => n + logged(i, /^salt event: vnc\.connect rig-mark-/).length, 0);
      const before = handled();
      const [host = ''] = minionIds(sim, 'up');
      for (let k = 0; k < 5; k++)
        sim.controls.minionEvent(host, 'vnc/connect', { hostname: `rig-mark-${k}`, status: 'connected' });
      const marks = async (): Promise<number> =>
        (
          (
            await call(
              rig.url,
              'GET',
              `/api/alerts?where=${q({ 'payload.hostname': { $regex: '^rig-mark-' } })}`,
            )
          ).json['_items'] as unknown[]
        ).length;
      await until(async () => (await marks()) === 5, 'five alerts');
      await until(() => handled() - before === 5, 'five handled events');
      expect(sim.controls.openEventStreams()).toBe(1);
    });

    it('runs each scheduled run once', async () => {
      const start = new Date().toISOString().slice(0, 16).replace('T', ' ');
      const [host = ''] = minionIds(sim, 'up');
      const created = await call(
        rig.url,
        'POST',
        '/api/tasks',
        { name: 'rig-every-2s', fun: 'test.ping', tgt: [host], start, interval: 2, salt_client: 'local' },
        TOKENS.operator,
      );
      expect(created.status).toBe(201);
      const id = String(created.json['_id']);
      const actions = async (): Promise<Json[]> =>
        (await call(rig.url, 'GET', `/api/actions?where=${q({ user: 'task:rig-every-2s' })}&max_results=100`))
          .json['_items'] as Json[];
      let count = 0;
      await until(async () => {
        count = Number((await call(rig.url, 'GET', `/api/tasks/${id}`)).json['count_of_execution']);
        return count >= 3 && (await actions()).length === count;
      }, 'three runs, each recorded once');
      const jids = (await actions()).map((a) => a['jid']);
      expect(new Set(jids).size).toBe(jids.length);
    });

    it('keeps going when an instance is killed: its duties move within the lease time, its async job is followed by the others, nothing acknowledged is lost', async () => {
      const before = await holders();
      const victim = instanceOf(before['salt-events'] ?? 0) as RigInstance;
      const duties = Object.entries(before)
        .filter(([, pid]) => pid === victim.pid)
        .map(([lease]) => lease);
      // Writes acknowledged through the balancer while the instance dies.
      const acknowledged: string[] = [];
      let writing = true;
      const writer = (async () => {
        for (let k = 0; writing; k++) {
          const res = await call(
            rig.url,
            'POST',
            '/api/alerts',
            { type: `rig.write.${k}` },
            TOKENS.operator,
          ).catch(() => undefined);
          if (res?.status === 201) acknowledged.push(String(res.json['_id']));
        }
      })();
      await until(() => acknowledged.length >= 5, 'writes acknowledged');
      // An async job on the victim, with a down minion: it cannot finish before its deadline.
      const up = minionIds(sim, 'up').slice(0, 2);
      const [down = ''] = minionIds(sim, 'down');
      const group = await call(rig.url, 'POST', '/api/groups', { name: 'rig-async', hosts: [...up, down] });
      expect(group.status).toBe(201);
      const started = await call(
        victim.url,
        'POST',
        `/api/groups/${String(group.json['_id'])}`,
        { exec_client: 'local_async', fun: 'test.ping' },
        TOKENS.operator,
      );
      expect(started.status).toBe(200);
      const jid = String(started.json['task_id']);
      const killedAt = Date.now();
      await rig.kill(rig.instances.indexOf(victim) + 1);
      // Its duties move to the survivors.
      await until(async () => {
        const now = await holders();
        return duties.every((lease) => now[lease] !== undefined && now[lease] !== victim.pid);
      }, "the victim's duties to move");
      const moved = Date.now() - killedAt;
      const after = await holders();
      for (const lease of duties) expect(live().map((i) => i.pid)).toContain(after[lease]);
      await until(() => sim.controls.openEventStreams() === 1, 'one reader again');
      process.stdout.write(
        `rig (${label}): ${duties.join(', ')} moved ${moved} ms after SIGKILL (lease ${RIG_LEASE_TTL_S * 1000} ms)\n`,
      );
      // The async job: followed by another instance; its returns are read through any of them.
      await until(
        () => live().some((i) => logged(i, 'async job: polling the master', { jid }).length > 0),
        'another instance to poll the job',
      );
      await until(async () => {
        const items = (await call(rig.url, 'GET', `/api/actions?where=${q({ jid })}`)).json[
          '_items'
        ] as Json[];
        return up.every((h) => items.some((a) => a['host'] === h));
      }, 'the returns of the up minions');
      // Acknowledged writes: every one is in the store.
      await until(() => acknowledged.length >= 20, 'more writes after the kill');
      writing = false;
      await writer;
      expect(await store.count('alerts', { _id: { $in: acknowledged } })).toBe(acknowledged.length);
      // The instance comes back and takes requests again.
      await rig.restart(rig.instances.indexOf(victim) + 1);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => call(rig.url, 'GET', '/api/hosts?max_results=1')),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    });

    it('reconciles the VPN on the holder whichever instance is asked; repairs drift once', async () => {
      const manager = await call(
        rig.url,
        'POST',
        '/api/vpn_managers',
        vpnManagerBody({ dashboard_address: vpn.url, ...VPN_ADMIN }),
      );
      expect(manager.status).toBe(201);
      const org = await call(rig.url, 'POST', '/api/vpn_organizations', {
        name: 'rig-org',
        vpn_manager: manager.json['_id'],
      });
      expect(org.status).toBe(201);
      const [doc] = await store.find('vpn_organizations', { _id: String(org.json['_id']) });
      vpn.state.organizations.delete(String((doc?.['vpnsrv_representation'] as { id: string }).id));
      for (const i of live()) {
        const res = await call(i.url, 'POST', '/api/vpn_managers/reconcile');
        expect(res.status).toBe(200);
        expect((res.json['managers'] as Json[]).map((m) => m['_id'])).toContain(manager.json['_id']);
      }
      expect([...vpn.state.organizations.values()].filter((o) => o.name === 'rig-org')).toHaveLength(1);
    });

    it('monitors a host started from one instance and stops it from another', async () => {
      const [host = ''] = minionIds(sim, 'up');
      const [a, b] = live();
      const samples = (): number => sim.controls.stats.byFun['local:status.all_status'] ?? 0;
      expect(
        (await call(a?.url ?? '', 'POST', `/api/hosts/${host}/all_status`, { action: 'start' })).status,
      ).toBe(200);
      const first = samples();
      await until(() => samples() >= first + 3, 'periodic samples');
      const stopped = await call(b?.url ?? '', 'POST', `/api/hosts/${host}/all_status`, { action: 'stop' });
      expect(stopped.json).toMatchObject({ was_monitoring: true });
      expect(await store.count('monitored_hosts', {})).toBe(0);
    });

    it('holds the execution limit across instances', async () => {
      const [host = ''] = minionIds(sim, 'up');
      const exec = (base: string) =>
        call(base, 'POST', `/api/hosts/${host}`, { exec_client: 'local', fun: 'test.ping' }, BURST);
      // One to each instance in turn: each admits only its share of the limit.
      for (let k = 0; k < EXEC_LIMIT; k++) expect((await exec(rig.url)).status).toBe(200);
      const heard = (i: RigInstance): number =>
        Math.max(
          0,
          ...logged(i, 'rate limits: charged what other instances admitted').map((l) => Number(l['heard'])),
        );
      // Each instance hears what the others admitted (and charges its own bucket for it)...
      await until(async () => {
        const counts = await store.find('rate_counts', {});
        const byOthers = (i: RigInstance): number =>
          counts
            .filter((d) => Number(String(d['holder']).split(':')[1]) !== i.pid)
            .reduce((n, d) => n + Number(d['count']), 0);
        const burst = counts
          .filter((d) => String(d['key']).endsWith('burst'))
          .reduce((n, d) => n + Number(d['count']), 0);
        return burst === EXEC_LIMIT && live().every((i) => heard(i) >= byOthers(i));
      }, 'every instance to hear the others');
      // ...so every one refuses the next, where counts per process would still admit two each.
      for (const i of live()) expect((await exec(i.url)).status).toBe(429);
    });
  });
}
