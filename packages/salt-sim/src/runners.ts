/**
 * Runner functions (salt/netapi/rest_cherrypy/app.py, salt/runners/jobs.py, salt/runners/manage.py, salt/wheel/key.py, salt/runners/fileserver.py, salt/modules/cp.py, salt/utils/minions.py; signatures of salt/runners/*.py, 2018.3):
 * manage.*, jobs.*, fileserver.* and config.get. Runners execute on the master; each fires
 * `salt/run/<jid>/new` and `salt/run/<jid>/ret`. Arguments are taken the way
 * `RunnerClient._reformat_low` takes them (argspec.ts `runnerCall`): `arg`, `kwarg` and other
 * top-level keys, except the credential keys it pops (`key`, `user`...). An unknown function is
 * a 500 (`verify_fun` raises in `_reformat_low`, in the salt-api process); a function that
 * raises returns its traceback string with HTTP 200.
 */
import { PyError, runnerCall, sig, VAR_ARGS, type BoundCall, type Signature } from './argspec';
import { exceptionText, raiseIfBroken, typeErrorReturn, type FunCall, type SimContext } from './context';
import { text, truthy } from './scalars';
import { unexpectedError } from './http-errors';
import { resolveTarget } from './match';
import { acceptedMinions } from './model';
import { atLeast } from './version';

type Runner = (ctx: SimContext, call: FunCall) => unknown;

/**
 * manage.status: pings the targets (a real test.ping job) and splits them by answer. When no
 * accepted minion matches, `_ping` gets `{}` from `run_job` and returns it: 2018.3's `status`
 * unpacks it (`ret['up'], ret['down'] = _ping(...)`), a ValueError the runner answers as its
 * exception text; 2019.2 writes `([], []) if not res else res` (salt/runners/manage.py).
 */
async function manageStatus(ctx: SimContext, call: FunCall): Promise<{ up: string[]; down: string[] }> {
  const tgt = call.values['tgt'];
  const tgtType = text(call.values['tgt_type'], 'glob');
  const { minions } = resolveTarget(ctx.fleet, tgt, tgtType);
  if (minions.length === 0) {
    if (atLeast(ctx.settings.masterVersion, '2019.2')) return { up: [], down: [] };
    throw new PyError('ValueError', 'not enough values to unpack (expected 2, got 0)');
  }
  const job = ctx.jobs.publish({
    fun: 'test.ping',
    args: [],
    kwargs: {},
    tgt,
    tgtType,
    user: call.user,
    minions,
    missing: [],
  });
  await job.settled;
  return {
    up: minions.filter((id) => job.returns.has(id)).sort(),
    down: minions.filter((id) => !job.returns.has(id)).sort(),
  };
}

function withJid(fn: (ctx: SimContext, jid: string, call: FunCall) => unknown): Runner {
  return (ctx, call) => fn(ctx, text(call.values['jid']), call);
}

function connected(ctx: SimContext): string[] {
  return acceptedMinions(ctx.fleet)
    .filter((m) => m.up)
    .map((m) => m.id)
    .sort();
}

function listJobs(ctx: SimContext, call: FunCall): unknown {
  const fn = call.values['search_function'];
  const tgt = call.values['search_target'];
  const all = ctx.jobs.listJobs();
  return Object.fromEntries(
    Object.entries(all).filter(
      ([, j]) =>
        (fn === null || j['Function'] === fn) &&
        (tgt === null || JSON.stringify(j['Target']).includes(text(tgt))),
    ),
  );
}

function fileList(ctx: SimContext, call: FunCall): string[] {
  const env = text(call.values['saltenv'], 'base');
  return env === 'base' ? [...ctx.fleet.files.keys()].sort() : [];
}

function dirList(ctx: SimContext): string[] {
  const dirs = new Set<string>();
  for (const path of ctx.fleet.files.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i += 1) dirs.add(parts.slice(0, i).join('/'));
  }
  return [...dirs].sort();
}

/** config.get on the master opts: the nodegroups and a few defaults (salt/netapi/rest_cherrypy/app.py, salt/utils/minions.py). */
function configGet(ctx: SimContext, call: FunCall): unknown {
  const key = text(call.values['key']);
  const opts: Record<string, unknown> = {
    nodegroups: ctx.fleet.nodegroups,
    id: `${ctx.fleet.masterId}_master`,
    timeout: 5,
    gather_job_timeout: 10,
    keep_jobs_seconds: 86400,
    hash_type: 'sha256',
    token_expire: ctx.settings.tokenExpireS,
    netapi_enable_clients: ctx.settings.enabledClients,
    file_roots: { base: ['/srv/salt'] },
  };
  let node: unknown = opts;
  for (const part of key.split(text(call.values['delimiter'], ':'))) {
    node =
      node !== null && typeof node === 'object' && !Array.isArray(node)
        ? (node as Record<string, unknown>)[part]
        : undefined;
  }
  return node ?? call.values['default'];
}

const TARGET = { tgt: '*', tgt_type: 'glob', expr_form: null, timeout: null, gather_job_timeout: null };
const PRESENT = { subset: null, show_ipv4: null, show_ip: false };
const JID = ['jid'];

const RUNNERS: Record<string, { sig: Signature; run: Runner }> = {
  'manage.status': { sig: sig('status', [], { output: true, ...TARGET }), run: manageStatus },
  'manage.up': { sig: sig('up', [], TARGET), run: async (ctx, call) => (await manageStatus(ctx, call)).up },
  'manage.down': {
    sig: sig('down', [], { removekeys: false, tgt: '*', tgt_type: 'glob', expr_form: null }),
    run: async (ctx, call) => {
      const { down } = await manageStatus(ctx, call);
      if (truthy(call.values['removekeys'])) for (const id of down) ctx.fleet.minions.delete(id);
      return down;
    },
  },
  'manage.present': { sig: sig('present', [], PRESENT), run: connected },
  'manage.list_state': { sig: sig('list_state', [], PRESENT), run: connected },
  'manage.joined': { sig: sig('joined', [], PRESENT), run: connected },
  'manage.alived': { sig: sig('alived', [], PRESENT), run: connected },
  'manage.not_present': {
    sig: sig('not_present', [], PRESENT),
    run: (ctx) =>
      acceptedMinions(ctx.fleet)
        .filter((m) => !m.up)
        .map((m) => m.id)
        .sort(),
  },
  'jobs.list_jobs': {
    sig: sig('list_jobs', [], {
      ext_source: null,
      outputter: null,
      search_metadata: null,
      search_function: null,
      search_target: null,
      start_time: null,
      end_time: null,
      display_progress: false,
    }),
    run: listJobs,
  },
  'jobs.list_job': {
    sig: sig('list_job', JID, { ext_source: null, display_progress: false }),
    run: withJid((ctx, jid) => ctx.jobs.listJob(jid)),
  },
  'jobs.print_job': {
    sig: sig('print_job', JID, { ext_source: null }),
    run: withJid((ctx, jid) => ({ [jid]: ctx.jobs.listJob(jid) })),
  },
  'jobs.lookup_jid': {
    sig: sig('lookup_jid', JID, {
      ext_source: null,
      returned: true,
      missing: false,
      display_progress: false,
    }),
    run: withJid((ctx, jid, call) => ctx.jobs.lookupJid(jid, truthy(call.values['missing']))),
  },
  'jobs.exit_success': {
    sig: sig('exit_success', JID, { ext_source: null }),
    run: withJid((ctx, jid) => {
      const job = ctx.jobs.get(jid);
      return job ? Object.fromEntries(job.minions.map((id) => [id, job.returns.get(id)?.retcode === 0])) : {};
    }),
  },
  'fileserver.file_list': { sig: sig('file_list', [], { saltenv: 'base', backend: null }), run: fileList },
  'fileserver.dir_list': { sig: sig('dir_list', [], { saltenv: 'base', backend: null }), run: dirList },
  'fileserver.envs': { sig: sig('envs', [], { backend: null, sources: false }), run: () => ['base'] },
  'config.get': { sig: sig('get', ['key'], { default: '', delimiter: ':' }), run: configGet },
  // salt/runners/test.py `arg(*args, **kwargs)`: shows exactly what reached the runner.
  'test.arg': {
    sig: sig('arg', [], {}, { varKw: true, varArgs: true }),
    run: (_ctx, call) => {
      const { [VAR_ARGS]: args, ...kwargs } = call.values;
      return { args, kwargs };
    },
  },
};

/** Whether the master has this runner (`verify_fun`). */
export function hasRunner(fun: string): boolean {
  return RUNNERS[fun] !== undefined;
}

/** `_low`'s try block for a runner: the argument binding and the call; an exception becomes text. */
async function callRunner(
  ctx: SimContext,
  fun: string,
  chunk: Record<string, unknown>,
  user: string,
): Promise<{ ret: unknown; success: boolean; funArgs: unknown[] }> {
  const runner = RUNNERS[fun];
  if (runner === undefined) throw unexpectedError();
  let bound: BoundCall;
  try {
    bound = runnerCall(runner.sig, chunk);
  } catch (err) {
    if (!(err instanceof PyError)) throw err;
    const failed =
      err.pyClass === 'TypeError'
        ? typeErrorReturn(ctx, 'runner', fun, err.message)
        : { ret: exceptionText('runner', fun, err.pyClass, err.message), success: false };
    return { ...failed, funArgs: [] };
  }
  try {
    raiseIfBroken(ctx, fun);
    const ret = await runner.run(ctx, { fun, values: bound.values, funArgs: bound.funArgs, user });
    return { ret, success: true, funArgs: bound.funArgs };
  } catch (err) {
    // `_low` catches what the function raises: its traceback is the return, `success: False`.
    if (!(err instanceof PyError)) throw err;
    return {
      ret: exceptionText('runner', fun, err.pyClass, err.message),
      success: false,
      funArgs: bound.funArgs,
    };
  }
}

/** Runs a runner lowstate chunk; returns its value (or its exception text). */
export async function runRunner(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
): Promise<{ jid: string; ret: unknown; success: boolean }> {
  const fun = text(chunk['fun']);
  // verify_fun runs in RunnerClient._reformat_low, before the master: an unknown runner is a 500.
  if (!hasRunner(fun)) throw unexpectedError();
  const jid = ctx.jobs.newJid();
  const base = { fun: `runner.${fun}`, jid, user };
  ctx.bus.fire(`salt/run/${jid}/new`, base);
  const { ret, success, funArgs } = await callRunner(ctx, fun, chunk, user);
  ctx.bus.fire(`salt/run/${jid}/ret`, { ...base, fun_args: funArgs, return: ret, success });
  return { jid, ret, success };
}
