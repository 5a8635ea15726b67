/**
 * `pnpm bench`: every scenario in one table. S1 runs through the shared anchors
 * (anchors.sh: raw, sqlite-ref, Feathers and ours); the other scenarios run against `fleet serve`
 * children pinned to core 0 (S10: WORKERS=2 on every core) with autocannon on core 1, on cached
 * files (dataset.ts, stores.ts). Every round runs every selected scenario once; the table gives
 * medians, the server's RSS and the targets with PASS/FAIL. Exits non-zero only when something
 * crashed, never for a missed target. S12 (two processes writing to one file, contention.ts) runs
 * once at the end. BENCH_ONLY, BENCH_QUICK and the rest: options.ts.
 */
import { cpus, loadavg } from 'node:os';
import { systemContext } from '@fleet/engine';
import { anchorsRound, ANCHOR_SERVERS } from './anchors';
import { attackLine, attackServer } from './attack';
import { pinTo, rssMb, treeRssMb, type ApiChild } from './child';
import { ensureDataset } from './dataset';
import { contentionRows, contentionRun, describeContention } from './contention';
import { withEngine } from './engine';
import { findFixtures } from './fixtures';
import { measure, type Scenario } from './load';
import { benchOptions, selected, type BenchOptions } from './options';
import { Results } from './results';
import { s9Round, s9Rows, startStatistics } from './s9';
import { burst } from './s11';
import { scaleBench } from './scale';
import { BENCH_TASK, SCENARIOS, type Fixtures, type ScenarioDef } from './scenarios';
import { startServers, TOKEN, type ServerFiles, type Servers } from './servers';
import { ensureAnchorStore, ensureGraphStore } from './stores';
import { judge, table } from './table';

/** The key of the engine that clears the bench's tasks: it reads no secret, any key does. */
const CLEANUP_KEY = 'bench-cleanup-key-0123456789';
const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The scenarios this run measures: the selected ones, and S1s when a ratio needs it. */
function plan(o: BenchOptions): {
  defs: ScenarioDef[];
  anchors: boolean;
  rss: boolean;
  s9: boolean;
  attack: boolean;
  s11: boolean;
  contention: boolean;
} {
  const needsBase = ['S1', 'S2', 'S8', 'S10'].some((id) => selected(o, id));
  const defs = SCENARIOS.filter((d) => selected(o, d.id) || (d.id === 'S1s' && needsBase));
  const store = defs.some((d) => d.server === 'seeded');
  return {
    defs,
    anchors: selected(o, 'S1') || selected(o, 'S3'),
    rss: store || selected(o, 'RSS'),
    s9: selected(o, 'S9'),
    attack: selected(o, 'ATK'),
    // A burst on a fresh store and a simulated master of its own: only when asked for by name.
    s11: o.only?.has('S11') === true,
    contention: selected(o, 'S12'),
  };
}

/** Seeds or reuses the file of every server the plan needs. */
async function files(o: BenchOptions, defs: readonly ScenarioDef[], rss: boolean): Promise<ServerFiles> {
  const need = new Set(defs.map((d) => d.server));
  const out: ServerFiles = {};
  if (need.has('seeded') || rss) {
    const dataset = await ensureDataset({ hosts: o.hosts, actions: o.actions, seed: 1 }, say);
    out.seeded = dataset.path;
  }
  if (need.has('anchor') || need.has('workers')) {
    const anchor = (await ensureAnchorStore(10_000, say)).path;
    if (need.has('anchor')) out.anchor = anchor;
    if (need.has('workers')) out.workers = anchor;
  }
  if (need.has('big')) out.big = (await ensureAnchorStore(o.bigHosts, say)).path;
  if (need.has('graph')) out.graph = (await ensureGraphStore(say)).path;
  return out;
}

/** One request of each scenario before any load: one answering 4xx/5xx would measure its error path. */
async function firstRequests(
  servers: Servers,
  defs: readonly ScenarioDef[],
  fixtures: Fixtures,
): Promise<void> {
  for (const def of defs) {
    const api = servers.api[def.server];
    if (api === undefined) continue;
    const s = def.request(fixtures);
    const body = typeof s.body === 'string' ? s.body : s.body?.[0];
    const res = await fetch(`${api.url}${s.path}`, {
      method: s.method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    const answer =
      res.status < 300 ? `${res.status}, ${text.length} bytes` : `${res.status} (!): ${text.slice(0, 300)}`;
    say(`  ${def.id.padEnd(4)} ${s.method} ${decodeURIComponent(s.path)} -> ${answer}`);
  }
}

function serverRss(api: ApiChild, tree: boolean): number {
  return tree ? treeRssMb(api.serverPid) : rssMb(api.serverPid);
}

/** One round of the load scenarios; throws when a server died under load. */
async function loadRound(
  o: BenchOptions,
  servers: Servers,
  defs: readonly ScenarioDef[],
  fixtures: Fixtures,
  round: number,
  r: Results,
): Promise<void> {
  let storeRss = Number.NaN;
  for (const def of defs) {
    const api = servers.api[def.server];
    if (api === undefined) continue;
    const s: Scenario = def.request(fixtures);
    const m = await measure(s, {
      baseUrl: api.url,
      token: TOKEN,
      connections: 10,
      seconds: o.seconds,
      warmupSeconds: o.warmupSeconds,
    });
    if (api.exited() !== undefined)
      throw new Error(
        `the ${def.server} server exited (${api.exited() ?? ''}) during ${def.id}:\n${api.output()}`,
      );
    const rss = serverRss(api, def.server === 'workers');
    if (def.server === 'seeded') storeRss = Number.isNaN(storeRss) ? rss : Math.max(storeRss, rss);
    // No answer in the whole run: its latency is beyond the run, not 0 ms.
    const none = m.requests === 0 ? Number.POSITIVE_INFINITY : undefined;
    r.add(def.id, s.name, round, {
      rps: m.rps,
      p50: none ?? m.p50,
      p99: none ?? m.p99,
      non2xx: m.non2xx,
      errors: m.errors,
      timeouts: m.timeouts,
      rss,
    });
    say(
      `  round ${round} ${def.id.padEnd(4)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  non-2xx ${m.non2xx}  errors ${m.errors}  RSS ${rss.toFixed(0)} MB`,
    );
  }
  const nothing = { p50: Number.NaN, p99: Number.NaN, non2xx: 0, errors: 0, timeouts: 0 };
  if (!Number.isNaN(storeRss))
    r.add('RSS', 'server RSS with the whole seeded store (max)', round, { ...nothing, rss: storeRss });
}

/** One round of the anchors (S1 and its references). */
async function anchorRound(o: BenchOptions, round: number, r: Results): Promise<void> {
  const figures = await anchorsRound(o.seconds);
  for (const name of ANCHOR_SERVERS) {
    const f = figures.get(name);
    if (f === undefined) continue;
    const id = name === 'ours' ? 'S1' : `S1:${name}`;
    const label =
      name === 'ours'
        ? 'S1 anchor query, 10,000 hosts (anchors.sh: ours)'
        : `S1 query on ${name} (anchors.sh)`;
    r.add(id, label, round, {
      rps: f.rps,
      p50: f.p50,
      p99: f.p99,
      non2xx: f.bad,
      errors: 0,
      timeouts: 0,
      rss: f.rss,
    });
    say(
      `  round ${round} ${id.padEnd(13)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  RSS ${f.rss} MB`,
    );
  }
}

/** Tasks read per page while looking for the bench's own, and deleted per batch. */
const CLEANUP_PAGE = 5_000;

/**
 * Deletes the tasks S7a created in the cached file. A filter on their name alone is refused once
 * they are many (no index on `name`: tens of thousands at 3,000 writes/s), so the tasks are read
 * page by page along the primary key, and the bench's deleted by id.
 */
async function removeBenchTasks(path: string): Promise<number> {
  return withEngine(path, CLEANUP_KEY, async (runtime) => {
    const tasks = runtime.resources.get('tasks');
    const sys = systemContext(runtime);
    let removed = 0;
    for (let after = ''; ;) {
      const page = await tasks.find(
        { where: { _id: { $gt: after } }, projection: { name: 1 }, sort: [['_id', 1]], limit: CLEANUP_PAGE },
        sys,
      );
      const ours = page.filter((t) => t.name === BENCH_TASK).map((t) => t._id);
      if (ours.length > 0) removed += await tasks.deleteMany({ _id: { $in: ours } }, sys);
      const last = page[page.length - 1];
      if (last === undefined || page.length < CLEANUP_PAGE) return removed;
      after = last._id;
    }
  });
}

/** One round of the attack row, in one process (ATK1) and with WORKERS=2 (ATK2), each on a fresh server. */
async function attackRound(o: BenchOptions, path: string, round: number, r: Results): Promise<void> {
  for (const [id, cluster] of [
    ['ATK1', false],
    ['ATK2', true],
  ] as const) {
    const f = await attackServer(path, { seconds: o.attackSeconds, viewers: o.attackViewers, cluster });
    const label = `health under ${o.attackViewers} viewers' worst reads${cluster ? ', WORKERS=2' : ''}`;
    r.add(id, label, round, {
      p50: f.p50,
      p99: f.p99,
      non2xx: f.bad,
      errors: f.failed,
      timeouts: 0,
      rss: f.rssEnd,
      rssGrowth: f.rssEnd - f.rssStart,
    });
    say(`  round ${round} ${id.padEnd(4)} ${attackLine(f)}`);
  }
}

/** Runs the rounds on started servers; resolves the results. */
async function rounds(
  o: BenchOptions,
  p: ReturnType<typeof plan>,
  servers: Servers,
  seeded: string | undefined,
): Promise<Results> {
  const r = new Results();
  servers.storeStartsMs.forEach((ms, i) =>
    r.add('START', 'start-up with the whole seeded store (median)', i + 1, {
      p50: ms,
      p99: Number.NaN,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      rss: Number.NaN,
    }),
  );
  const fixtures = await findFixtures(TOKEN, servers.api.seeded?.url, servers.api.graph?.url);
  await firstRequests(servers, p.defs, fixtures);
  const stats = p.s9 ? await startStatistics(10_000, o.statDays, say) : undefined;
  try {
    for (let round = 1; round <= o.rounds; round += 1) {
      say(`round ${round} of ${o.rounds} (load average ${load()})`);
      if (p.anchors) await anchorRound(o, round, r);
      await loadRound(o, servers, p.defs, fixtures, round, r);
      if (p.attack && seeded !== undefined) await attackRound(o, seeded, round, r);
      if (stats === undefined) continue;
      const labels = new Map(s9Rows(o.statDays).map((row) => [row.id, row.label]));
      for (const s of await s9Round(stats.api, o.statDays, o.statRequests)) {
        r.add(s.id, labels.get(s.id) ?? s.id, round, {
          p50: s.p50,
          p99: s.max,
          non2xx: 0,
          errors: 0,
          timeouts: 0,
          rss: s.rss,
        });
      }
    }
  } finally {
    await stats?.close();
  }
  if (p.s11) await s11Rounds(o, r);
  return r;
}

/** S11 once per round: the returns' time to the store, and S1 during the burst. */
async function s11Rounds(o: BenchOptions, r: Results): Promise<void> {
  for (let round = 1; round <= o.rounds; round += 1) {
    const f = await burst(10_000, Math.max(10, o.seconds * 2), say);
    const none = { non2xx: 0, errors: 0, timeouts: 0, rss: Number.NaN };
    r.add('S11', `S1 during a burst of ${f.expected} job returns`, round, { ...f.load, rss: Number.NaN });
    r.add('S11t', `${f.stored} of ${f.expected} returns stored (ms)`, round, {
      ...none,
      p50: f.storeMs,
      p99: Number.NaN,
    });
    say(
      `  round ${round} S11  stored ${f.stored}/${f.expected} in ${f.storeMs} ms (the master's last return after ${f.masterMs} ms); S1 p99 ${f.load.p99} ms`,
    );
  }
}

async function main(): Promise<number> {
  const o = benchOptions();
  if (o.scale) {
    say(
      `fleet-api bench, 100,000-host set ${new Date().toISOString()}: ${cpus().length} cores; load average ${load()}`,
    );
    await scaleBench(o, say);
    say(`load average at the end ${load()}`);
    return 0;
  }
  const p = plan(o);
  const started = new Date();
  const pinned =
    pinTo(0).length > 0
      ? 'servers pinned to core 0, autocannon to core 1'
      : 'not pinned (no taskset or one core)';
  say(`fleet-api bench ${started.toISOString()}: ${cpus().length} cores (${pinned}); load average ${load()}`);
  say(
    `${o.rounds} round(s) of ${o.seconds} s per scenario after ${o.warmupSeconds} s of warm-up${o.quick ? ' (quick)' : ''}; scenarios ${p.defs.map((d) => d.id).join(' ')}${p.anchors ? ' + anchors' : ''}${p.s9 ? ' + S9' : ''}${p.attack ? ` + attack (${o.attackSeconds} s)` : ''}${p.contention ? ` + S12 (once, ${o.contentionSeconds} s)` : ''}`,
  );
  const serverFiles = await files(o, p.defs, p.rss || p.attack);
  // The attack starts servers of its own on the seeded file: no other one runs beside them.
  const { seeded: _attacked, ...others } = serverFiles;
  const servers = await startServers(p.rss ? serverFiles : others, p.rss ? o.rounds : 0, say);
  let r: Results;
  try {
    r = await rounds(o, p, servers, serverFiles.seeded);
  } finally {
    await servers.stopAll();
  }
  if (p.defs.some((d) => d.id === 'S7a')) {
    const dataset = await ensureDataset({ hosts: o.hosts, actions: o.actions, seed: 1 }, () => undefined);
    say(`removed ${await removeBenchTasks(dataset.path)} task(s) the bench created`);
  }
  // S12 once, after the servers above stopped: two processes of its own, one file, 60 s.
  const contention = p.contention ? await contentionRun(o, say) : undefined;
  if (contention !== undefined) describeContention(contention, o.contentionSeconds, say);
  const s9Targets = new Map(s9Rows(o.statDays).map((row) => [row.id, row.target]));
  const verdicts = judge(r, s9Targets);
  if (contention !== undefined)
    for (const [id, v] of contentionRows(contention, o.contentionSeconds, r)) verdicts.set(id, v);
  say('');
  for (const text of table(r, verdicts)) say(text);
  say(
    `\nmedians of ${o.rounds} round(s); ratios are medians of per-round ratios; load average at the end ${load()}; took ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
