/**
 * The execution modules the simulated minions answer (salt/netapi/__init__.py, salt/client/__init__.py, salt/modules/state.py, salt/grains/core.py, salt/modules/status.py): test.*,
 * cmd.run / cmd.run_all, grains.*, state.apply, status.all_status, cp.get_file_str,
 * pkg.upgrade and a few saltutil.* functions. A function a minion does not have returns
 * the string `'<fun>' is not available.` with retcode 1, as a real minion does.
 */
import type { Fleet, SimMinion } from './model';
import { toolTimestamp } from './model';
import { text } from './scalars';
import { cmdRun, type CmdResult } from './shell';
import { stateApply, type MinionOutput } from './state';
import { allStatus } from './status';

/** What a function sees when it runs on one minion. */
export interface ExecContext {
  fleet: Fleet;
  minion: SimMinion;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

type ExecFn = (ctx: ExecContext) => MinionOutput;

const ok = (ret: unknown): MinionOutput => ({ ret, retcode: 0 });

/** The simulator's canned commands: what its shell (./shell.ts) does not run itself. */
function canned(ctx: ExecContext, commandLine: string): { stdout: string; retcode: number } {
  const cmd = commandLine.trim();
  const g = ctx.minion.grains;
  const table: Array<[RegExp, () => { stdout: string; retcode: number }]> = [
    [/^hostname -f$/, () => ({ stdout: ctx.minion.id, retcode: 0 })],
    [/^hostname$/, () => ({ stdout: String(g['host']), retcode: 0 })],
    [/^uname -r$/, () => ({ stdout: String(g['kernelrelease']), retcode: 0 })],
    [/^whoami$/, () => ({ stdout: 'root', retcode: 0 })],
    [
      /^uptime$/,
      () => ({ stdout: ' 10:12:01 up 3 days,  4:07,  1 user,  load average: 0.08, 0.12, 0.10', retcode: 0 }),
    ],
    [/^echo\s+/, () => ({ stdout: cmd.replace(/^echo\s+/, '').replace(/^(['"])(.*)\1$/, '$2'), retcode: 0 })],
    [/^(false|exit 1)$/, () => ({ stdout: '', retcode: 1 })],
    [/^exit (\d+)$/, () => ({ stdout: '', retcode: Number(/\d+/.exec(cmd)?.[0] ?? 1) })],
    [
      /^no-such-command\b/,
      () => ({ stdout: `/bin/sh: 1: ${cmd.split(' ')[0] ?? ''}: not found`, retcode: 127 }),
    ],
  ];
  const hit = table.find(([re]) => re.test(cmd));
  return hit ? hit[1]() : { stdout: '', retcode: 0 };
}

/**
 * `cmd.run(cmd, ...)` bound as Python binds it: `cmd` positionally or by name, not both; a
 * TypeError is returned as the minion's `_thread_return` words it (retcode 1).
 */
function shell(ctx: ExecContext, fun: string): CmdResult {
  const byName = 'cmd' in ctx.kwargs;
  if (byName && ctx.args.length > 0)
    return {
      output: `Passed invalid arguments to ${fun}: run() got multiple values for argument 'cmd'\n`,
      retcode: 1,
    };
  if (!byName && ctx.args.length === 0)
    return {
      output: `Passed invalid arguments to ${fun}: run() missing 1 required positional argument: 'cmd'\n`,
      retcode: 1,
    };
  const cmd = String(byName ? ctx.kwargs['cmd'] : ctx.args[0]);
  return cmdRun(
    { fleet: ctx.fleet, minion: ctx.minion, fallback: (line) => canned(ctx, line) },
    cmd,
    ctx.kwargs,
  );
}

function grainsGet(grains: Record<string, unknown>, key: string): unknown {
  let node: unknown = grains;
  for (const part of key.split(':')) {
    node =
      node !== null && typeof node === 'object' && !Array.isArray(node)
        ? (node as Record<string, unknown>)[part]
        : undefined;
  }
  return node ?? '';
}

function modsOf(ctx: ExecContext): string[] {
  const mods = ctx.args[0] ?? ctx.kwargs['mods'];
  if (Array.isArray(mods)) return mods.map(String);
  return typeof mods === 'string' && mods !== '' ? mods.split(',').map((s) => s.trim()) : [];
}

function pkgUpgrade(ctx: ExecContext): MinionOutput {
  const tool = ctx.minion.grains[ctx.fleet.toolKey];
  const toolObj = tool !== null && typeof tool === 'object' ? (tool as Record<string, unknown>) : {};
  ctx.minion.grains[ctx.fleet.toolKey] = { ...toolObj, last_distupgrade: toolTimestamp(Date.now()) };
  return ok({
    openssl: { old: '3.0.2-0ubuntu1.15', new: '3.0.2-0ubuntu1.18' },
    libssl3: { old: '3.0.2-0ubuntu1.15', new: '3.0.2-0ubuntu1.18' },
  });
}

const FUNCTIONS: Record<string, ExecFn> = {
  'test.ping': () => ok(true),
  'test.true': () => ok(true),
  'test.false': () => ok(false),
  'test.version': (c) => ok(c.minion.grains['saltversion']),
  'test.echo': (c) => ok(text(c.args[0] ?? c.kwargs['text'])),
  'cmd.run': (c) => {
    const r = shell(c, 'cmd.run');
    if ('noReturn' in r) return { ret: null, retcode: 0, noReturn: true };
    // A TypeError binding the arguments is caught by `_thread_return` (no normal return).
    const raised = r.output.startsWith('Passed invalid arguments') ? { raised: true as const } : {};
    return { ret: r.output, retcode: r.retcode, ...raised };
  },
  'cmd.run_all': (c) => {
    const r = shell(c, 'cmd.run_all');
    if ('noReturn' in r) return { ret: null, retcode: 0, noReturn: true };
    return {
      ret: {
        pid: 1000 + Math.floor(Math.random() * 60_000),
        retcode: r.retcode,
        stdout: r.output,
        stderr: '',
      },
      retcode: r.retcode,
    };
  },
  'grains.items': (c) => ok(structuredClone(c.minion.grains)),
  'grains.item': (c) =>
    ok(Object.fromEntries(c.args.map((k) => [String(k), grainsGet(c.minion.grains, String(k))]))),
  'grains.get': (c) => ok(grainsGet(c.minion.grains, text(c.args[0] ?? c.kwargs['key']))),
  'state.apply': (c) => stateApply(c.fleet, c.minion, modsOf(c)),
  'state.sls': (c) => stateApply(c.fleet, c.minion, modsOf(c)),
  'state.highstate': (c) => stateApply(c.fleet, c.minion, []),
  'status.all_status': (c) => ok(allStatus(c.minion)),
  'cp.get_file_str': (c) => {
    const path = text(c.args[0] ?? c.kwargs['path']).replace(/^salt:\/\//, '');
    return ok(c.fleet.files.get(path) ?? false);
  },
  'pkg.upgrade': pkgUpgrade,
  'saltutil.sync_all': () =>
    ok({
      beacons: [],
      clouds: [],
      grains: [],
      modules: [],
      output: [],
      renderers: [],
      returners: [],
      states: [],
      utils: [],
    }),
  'saltutil.refresh_grains': () => ok(true),
  'saltutil.running': () => ok([]),
  'saltutil.find_job': () => ok({}),
};

/** Runs `fun` on one minion; unknown functions answer like a real minion does. */
export function execute(fun: string, ctx: ExecContext): MinionOutput {
  const fn = FUNCTIONS[fun];
  if (fn === undefined) return { ret: `'${fun}' is not available.`, retcode: 1, raised: true };
  return fn(ctx);
}
