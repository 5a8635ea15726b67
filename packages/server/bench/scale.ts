/**
 * The 100,000-host scenario set, `BENCH_SCALE=1 pnpm bench`: the seeded fleet at 100,000 hosts and
 * 10,000,000 actions beside the 10,000-host one (both cached, dataset.ts), the anchor query (S1 on
 * `fleet serve`), S3, S4 and S5a on both servers in every round (the ratio is the target), the
 * statistics over 30 days of 5-minute history of 100,000 hosts (cached too: scale-parts.ts), the
 * first and a no-change sync of 100,000 minions on the simulated master (packages/salt/bench/
 * sync-bench.ts in a child), the seed's time, the store's size, and the API's RSS sampled
 * throughout. Heavy: about 30 minutes the first time (seeding), 20 once cached (docs/performance.md).
 */
import { findFixtures } from './fixtures';
import { measure } from './load';
import type { BenchOptions } from './options';
import { Results } from './results';
import { ANCHOR_PATH, SCENARIOS, type Fixtures } from './scenarios';
import { ensureDataset, type Dataset } from './dataset';
import { bytesOf, RssWatch, type ScaleLine, scaleStatistics, syncAtScale } from './scale-parts';
import { serverEnv, TOKEN } from './servers';
import { startApi, type ApiChild } from './child';

/** The fleet sizes compared: the issue's 10,000 hosts and ten times that. */
export const SMALL = { hosts: 10_000, actions: 1_000_000 } as const;
export const BIG = { hosts: 100_000, actions: 10_000_000 } as const;

/** The issue's targets for the set. */
const TARGETS = {
  seedMs: 15 * 60_000,
  storeBytes: 10e9,
  ratio: 1.5,
  rssMb: 500,
};

type Say = (line: string) => void;

/** The requests compared at both sizes. */
function requestsOf(f: Fixtures): Array<{ id: string; name: string; path: string }> {
  const byId = new Map(SCENARIOS.map((s) => [s.id, s]));
  const of = (id: string) => {
    const r = byId.get(id)?.request(f);
    if (r === undefined) throw new Error(`no scenario ${id}`);
    return { id, name: r.name, path: r.path };
  };
  return [
    { id: 'S1', name: 'anchor query on the seeded fleet', path: ANCHOR_PATH },
    of('S3'),
    of('S4'),
    of('S5a'),
  ];
}

type Line = ScaleLine;

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Measures every request at both sizes, round after round; resolves the lines. */
async function compare(
  o: BenchOptions,
  servers: { small: ApiChild; big: ApiChild },
  fixtures: { small: Fixtures; big: Fixtures },
  say: Say,
): Promise<Line[]> {
  const r = new Results();
  const smallRequests = requestsOf(fixtures.small);
  const bigRequests = requestsOf(fixtures.big);
  for (let round = 1; round <= o.rounds; round += 1) {
    for (const [i, req] of smallRequests.entries()) {
      for (const [size, api, path] of [
        ['10k', servers.small, req.path],
        ['100k', servers.big, bigRequests[i]?.path ?? req.path],
      ] as const) {
        const m = await measure(
          { name: req.name, method: 'GET', path },
          {
            baseUrl: api.url,
            token: TOKEN,
            connections: 10,
            seconds: o.seconds,
            warmupSeconds: o.warmupSeconds,
          },
        );
        r.add(`${req.id}@${size}`, req.name, round, { ...m, rss: Number.NaN });
        say(
          `  round ${round} ${req.id.padEnd(4)} ${size.padEnd(4)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  non-2xx ${m.non2xx}  errors ${m.errors}`,
        );
      }
    }
  }
  return smallRequests.flatMap((req) => {
    const [a, b] = [`${req.id}@10k`, `${req.id}@100k`];
    const slower = r.ratio(a, b);
    const p99 = r.median(b, 'p99') / r.median(a, 'p99');
    const bad = r.sum(b, 'non2xx') + r.sum(b, 'errors');
    return [
      {
        id: req.id,
        label: `${req.name}: 100,000 against 10,000 hosts`,
        target: `<= ${TARGETS.ratio} x (req/s, p99)`,
        measured: `${slower.toFixed(2)} x, ${p99.toFixed(2)} x (${r.median(a, 'rps').toFixed(0)} -> ${r.median(b, 'rps').toFixed(0)} req/s, p99 ${r.median(a, 'p99')} -> ${r.median(b, 'p99')} ms${bad > 0 ? `, ${bad} errors` : ''})`,
        pass: slower <= TARGETS.ratio && p99 <= TARGETS.ratio && bad === 0,
      },
    ];
  });
}

function datasetLines(big: Dataset): Line[] {
  const size = bytesOf(big.path);
  return [
    {
      id: 'SEED',
      label: `seed of ${BIG.hosts} hosts and ${BIG.actions} actions (${big.reused ? `cached, seeded ${big.seededAt}` : 'this run'})`,
      target: '<= 15 min',
      measured: s(big.seedMs),
      pass: big.seedMs <= TARGETS.seedMs,
    },
    {
      id: 'SIZE',
      label: 'store size (file and WAL)',
      target: '<= 10 GB',
      measured: `${(size / 1e9).toFixed(2)} GB`,
      pass: size <= TARGETS.storeBytes,
    },
  ];
}

/** Runs the set and prints its table. */
export async function scaleBench(o: BenchOptions, say: Say): Promise<void> {
  const small = await ensureDataset({ ...SMALL, seed: 1 }, say);
  const big = await ensureDataset({ ...BIG, seed: 1 }, say);
  const lines = datasetLines(big);
  const rss = new RssWatch();
  const servers = {
    small: await startApi(serverEnv(small.path), 0),
    big: await startApi(serverEnv(big.path), 0),
  };
  rss.watch('API at 100,000 hosts (scenarios)', servers.big.serverPid);
  say(
    `servers: 10k cold start ${s(servers.small.coldStartMs)}, 100k cold start ${s(servers.big.coldStartMs)}`,
  );
  try {
    const fixtures = {
      small: await findFixtures(TOKEN, servers.small.url),
      big: await findFixtures(TOKEN, servers.big.url),
    };
    lines.push(...(await compare(o, servers, fixtures, say)));
  } finally {
    await Promise.all([servers.small.stop(), servers.big.stop()]);
  }
  lines.push(...(await scaleStatistics(BIG.hosts, rss, say)));
  lines.push(...(await syncAtScale(BIG.hosts, rss, say)));
  lines.push(
    ...rss.peaks().map(([what, mb]) => ({
      id: 'RSS',
      label: what,
      target: `<= ${TARGETS.rssMb} MB`,
      measured: `${mb.toFixed(0)} MB`,
      pass: mb <= TARGETS.rssMb,
    })),
  );
  say('');
  for (const l of lines)
    say(
      `${l.id.padEnd(6)} ${l.label.padEnd(72)} ${l.target.padEnd(24)} ${l.measured}  ${l.pass ? 'PASS' : 'FAIL'}`,
    );
}
