#!/usr/bin/env node
/**
 * Measures a start command the way an operator meets it: time to its first line of output, time
 * until `/api/health` answers 200 on an empty store, the RSS of its whole process tree (every
 * process under the command, summed), and how it ends on Ctrl-C (SIGINT to its process group, as
 * a terminal sends it): exit status and whether a package manager complained.
 *
 *   node scripts/measure-start.mjs -- npx -y pnpm@10 start
 *   node scripts/measure-start.mjs --help-only -- node packages/server/bin/fleet.cjs --help
 *
 * The store is a fresh SQLite file in a temporary directory; the port is a free one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const helpOnly = args[0] === '--help-only';
const command = args.slice(args.indexOf('--') + 1);
if (command.length === 0) {
  process.stderr.write('usage: measure-start.mjs [--help-only] -- <command...>\n');
  process.exit(2);
}

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Every process id under `root`, itself included (from /proc's parent links). */
function tree(root) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parents) if (ppid === out[i]) out.push(pid);
  return out;
}

/** RSS in kB of one process, and its command name. */
function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? '?';
    return { pid, kb, name };
  } catch {
    return { pid, kb: 0, name: '?' };
  }
}

async function healthy(port, deadline) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const dir = mkdtempSync(join(tmpdir(), 'fleet-measure-'));
const port = await freePort();
const started = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
const child = spawn(command[0], command.slice(1), {
  detached: true,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`,
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
let firstLine;
const onData = (chunk) => {
  output += chunk.toString();
  if (firstLine === undefined && output.includes('\n')) firstLine = ms();
};
child.stdout.on('data', onData);
child.stderr.on('data', onData);
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

const report = { command: command.join(' ') };
if (helpOnly) {
  const end = await exited;
  report.firstLineMs = Math.round(firstLine ?? ms());
  report.totalMs = Math.round(ms());
  report.exit = end.code;
} else {
  const ok = await healthy(port, Date.now() + 120_000);
  report.healthyMs = ok ? Math.round(ms()) : null;
  report.firstLineMs = firstLine === undefined ? null : Math.round(firstLine);
  await new Promise((r) => setTimeout(r, 1000)); // settled: lazy threads and timers started
  const procs = tree(child.pid)
    .map(rssOf)
    .filter((p) => p.kb > 0);
  report.processes = procs.map((p) => `${p.name}:${Math.round(p.kb / 1024)}MB`).join(' ');
  report.treeRssMB = Math.round(procs.reduce((s, p) => s + p.kb, 0) / 1024);
  const sigintAt = ms();
  process.kill(-child.pid, 'SIGINT');
  const end = await exited;
  report.stopMs = Math.round(ms() - sigintAt);
  report.exit = end.code ?? end.signal;
  report.elifecycle = /ELIFECYCLE/.test(output);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
rmSync(dir, { recursive: true, force: true });
