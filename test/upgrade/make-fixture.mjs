#!/usr/bin/env node
/**
 * Makes one upgrade fixture: a store written by an earlier release of this repository, as that
 * release's own code wrote it, and what that release answered about it.
 *
 *   node test/upgrade/make-fixture.mjs --commit <sha> --name <name>
 *
 * It checks the commit out of this repository's history into a temporary directory, installs it
 * (from the lockfile of that commit), seeds a small fleet with that release's `seed`, starts that
 * release's server, makes a few writes over HTTP (an upload, a host patched and one deleted, a
 * task, an alert read), records its answers to a fixed set of reads, stops it with SIGTERM, and
 * writes into test/upgrade/fixtures/<name>/:
 *
 *   store.sql     the SQLite file as SQL text (tables, rows, indexes: the release's own layout)
 *   answers.json  the reads and what the release answered
 *   release.json  the commit, when it was made, the settings the test must use again
 *
 * The fixtures are committed; this script is how they were made (and how a later release adds
 * its own). It needs network access only when the commit's packages are not in the pnpm store.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({ options: { commit: { type: 'string' }, name: { type: 'string' } } });
if (!values.commit || !values.name) {
  process.stderr.write('usage: make-fixture.mjs --commit <sha> --name <name>\n');
  process.exit(2);
}

/** What the test uses again: the key that sealed the stored secrets and the token of the reads. */
export const SETTINGS = {
  SECRET_KEY: 'upgrade-fixture-secret-key-0123456789',
  TOKEN: 'upgrade-fixture-admin-token-0123456789',
};

const work = mkdtempSync(join(tmpdir(), `fleet-fixture-${values.name}-`));
const checkout = join(work, 'checkout');
const data = join(work, 'data');
mkdirSync(data);

function run(cmd, args, opts = {}) {
  process.stdout.write(`$ ${cmd} ${args.join(' ')}\n`);
  execFileSync(cmd, args, { stdio: 'inherit', ...opts });
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

const env = (port) => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: `sqlite:${join(data, 'fleet.db')}`,
  SECRET_KEY: SETTINGS.SECRET_KEY,
  API_TOKENS: `fixture=${SETTINGS.TOKEN}:admin`,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // The snapshot loop stays out of the way: the seed's snapshots are the history.
  SNAPSHOT_INTERVAL_S: '86400',
});

/** The release's own command line, run from its checkout. */
function fleet(args, port) {
  return spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/cli.ts', ...args], {
    cwd: checkout,
    env: env(port),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function untilHealthy(base) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the release never answered /api/health');
}

async function call(base, method, path, body, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${SETTINGS.TOKEN}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

const json = (value) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

/** The writes every fixture carries, through the release's API. */
async function writes(base) {
  const hosts = await call(base, 'GET', '/api/hosts?sort=_id&max_results=100');
  const [first, second] = hosts._items;
  const patched = json({ identification_number: 'INV-0001' });
  await call(base, 'PATCH', `/api/hosts/${first._id}`, patched.body, {
    ...patched.headers,
    'if-match': first._etag,
  });
  await call(base, 'DELETE', `/api/hosts/${second._id}`, undefined, { 'if-match': second._etag });
  const form = new FormData();
  form.append('name', 'inventory.csv');
  form.append('data', new Blob(['host,rack\nweb-1,r1\n'], { type: 'text/csv' }), 'inventory.csv');
  await call(base, 'POST', '/api/files', form);
  const task = json({
    name: 'nightly ping',
    fun: 'test.ping',
    tgt: ['*'],
    start: new Date(Date.now() + 86400e3).toISOString(),
    interval: 86400,
  });
  await call(base, 'POST', '/api/tasks', task.body, task.headers);
  const alerts = await call(base, 'GET', '/api/alerts?sort=_id&max_results=1');
  const alert = alerts._items[0];
  if (alert) {
    const read = json({ read: true });
    await call(base, 'PATCH', `/api/alerts/${alert._id}`, read.body, {
      ...read.headers,
      'if-match': alert._etag,
    });
  }
}

/** The reads recorded, with the statistics over the whole seeded span. */
async function reads(base) {
  const snaps = await call(
    base,
    'GET',
    '/api/hosts_statistic?sort=timestamp&max_results=1000&projection={"timestamp":1}',
  );
  const times = snaps._items.map((s) => Date.parse(s.timestamp));
  const from = new Date(Math.min(...times) - 3600e3).toISOString();
  const to = new Date(Math.max(...times) + 3600e3).toISOString();
  const range = `range[]=${encodeURIComponent(from)}&range[]=${encodeURIComponent(to)}`;
  const paths = [
    '/api/hosts?sort=_id&max_results=100',
    '/api/hosts?sort=_id&max_results=100&show_deleted=1',
    '/api/groups?sort=_id&max_results=100',
    '/api/nodegroups?sort=_id&max_results=100',
    '/api/actions?sort=_id&max_results=1000',
    '/api/alerts?sort=_id&max_results=100',
    '/api/tasks?sort=_id&max_results=100',
    '/api/files?sort=_id&max_results=100',
    '/api/vpn_managers?sort=_id&max_results=100',
    '/api/vpn_organizations?sort=_id&max_results=100',
    '/api/failed_patches?sort=_id&max_results=100',
    '/api/updates?sort=_id&max_results=100',
    '/api/settings?sort=_id&max_results=100',
    '/api/hosts_statistic?sort=timestamp&max_results=1000&projection={"hosts":0}',
    ...['online', 'unique_online', 'unique_updated', 'unique_dist_upgraded', 'new_hosts'].map(
      (kind) => `/api/hosts/statistics/${kind}?${range}`,
    ),
  ];
  const answers = {};
  for (const path of paths) answers[path] = await call(base, 'GET', path);
  return answers;
}

/** The SQLite file as SQL text: every table's DDL and rows, then the indexes. */
function dump(file) {
  const req = createRequire(join(checkout, 'engine', 'package.json'));
  const Database = req('better-sqlite3');
  const db = new Database(file, { readonly: true });
  const lines = ['PRAGMA foreign_keys = OFF;', 'BEGIN;'];
  const objects = db
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL ORDER BY type DESC, name",
    )
    .all();
  const literal = (v) => {
    if (v === null) return 'NULL';
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    if (Buffer.isBuffer(v)) return `X'${v.toString('hex')}'`;
    return `'${String(v).replace(/'/g, "''")}'`;
  };
  for (const o of objects.filter((x) => x.type === 'table')) {
    lines.push(`${o.sql};`);
    for (const row of db.prepare(`SELECT * FROM "${o.name}" ORDER BY rowid`).raw().all())
      lines.push(`INSERT INTO "${o.name}" VALUES (${row.map(literal).join(', ')});`);
  }
  for (const o of objects.filter((x) => x.type !== 'table')) lines.push(`${o.sql};`);
  lines.push('COMMIT;');
  db.close();
  return `${lines.join('\n')}\n`;
}

async function main() {
  run('git', ['clone', '--quiet', '--no-checkout', ROOT, checkout]);
  run('git', ['-C', checkout, 'checkout', '--quiet', values.commit]);
  const committed = execFileSync('git', ['-C', checkout, 'log', '-1', '--format=%cI'], {
    encoding: 'utf8',
  }).trim();
  try {
    run('npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile', '--offline'], { cwd: checkout });
  } catch {
    run('npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile'], { cwd: checkout });
  }
  const seedPort = await freePort();
  const seeded = fleet(
    ['seed', '--hosts', '12', '--actions', '120', '--snapshots', '6', '--seed', '7'],
    seedPort,
  );
  const seedExit = await new Promise((r) => seeded.on('exit', r));
  if (seedExit !== 0) throw new Error(`seed exited ${seedExit}`);
  const port = await freePort();
  const server = fleet(['serve'], port);
  const base = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(base);
    await writes(base);
    const answers = await reads(base);
    const out = join(ROOT, 'test', 'upgrade', 'fixtures', values.name);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'answers.json'), `${JSON.stringify(answers, null, 1)}\n`);
    server.kill('SIGTERM');
    const code = await new Promise((r) => server.on('exit', r));
    if (code !== 0) throw new Error(`the release's server exited ${code} on SIGTERM`);
    writeFileSync(join(out, 'store.sql'), dump(join(data, 'fleet.db')));
    const release = {
      commit: values.commit,
      committed,
      made: new Date().toISOString(),
      node: process.version,
      ...SETTINGS,
    };
    writeFileSync(join(out, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
    const size = readFileSync(join(out, 'store.sql')).length;
    process.stdout.write(
      `fixture ${values.name}: ${(size / 1024).toFixed(0)} KB of SQL, ${Object.keys(answers).length} answers\n`,
    );
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`make-fixture: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
