/**
 * Runner functions (salt-api notes §3-5, §8b, §9): manage.*, jobs.*, fileserver.* and
 * config.get. Runners execute on the master; each fires `salt/run/<jid>/new` and
 * `salt/run/<jid>/ret`. An unknown function is a 500 (verify_fun raises); a function
 * that raises returns its traceback string with HTTP 200.
 */
import { exceptionText, param, truthy, type FunCall, type SimContext } from './context';
import { unexpectedError } from './http-errors';
import { resolveTarget } from './match';
import { acceptedMinions } from './model';

type Runner = (ctx: SimContext, call: FunCall) => unknown;

/** manage.status: pings the targets (a real test.ping job) and splits them by answer. */
async function manageStatus(ctx: SimContext, call: FunCall): Promise<{ up: string[]; down: string[] }> {
  const tgt = param(call, 'tgt', 0) ?? '*';
  const tgtType = String(param(call, 'tgt_type', 1) ?? 'glob');
  const { minions } = resolveTarget(ctx.fleet, tgt, tgtType);
  if (minions.length === 0) return { up: [], down: [] };
  const job = ctx.jobs.publish({ fun: 'test.ping', args: [], kwargs: {}, tgt, tgtType, user: call.user, minions, missing: [] });
  await job.settled;
  return { up: minions.filter((id) => job.returns.has(id)).sort(), down: minions.filter((id) => !job.returns.has(id)).sort() };
}

function missingArg(fun: string, name: string): string {
  return exceptionText('runner', fun, `TypeError: ${fun.split('.')[1] ?? fun}() missing 1 required positional argument: '${name}'`);
}

function withJid(fn: (ctx: SimContext, jid: string, call: FunCall) => unknown): Runner {
  return (ctx, call) => {
    const jid = param(call, 'jid', 0);
    return jid === undefined ? missingArg(call.fun, 'jid') : fn(ctx, String(jid), call);
  };
}

function connected(ctx: SimContext): string[] {
  return acceptedMinions(ctx.fleet).filter((m) => m.up).map((m) => m.id).sort();
}

function listJobs(ctx: SimContext, call: FunCall): unknown {
  const fn = call.kwargs['search_function'];
  const tgt = call.kwargs['search_target'];
  const all = ctx.jobs.listJobs();
  return Object.fromEntries(Object.entries(all).filter(([, j]) =>
    (fn === undefined || j['Function'] === fn) && (tgt === undefined || JSON.stringify(j['Target']).includes(String(tgt)))));
}

function fileList(ctx: SimContext, call: FunCall): string[] {
  const env = String(param(call, 'saltenv', 0) ?? 'base');
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

/** config.get on the master opts: the nodegroups and a few defaults (salt-api notes §0, §9). */
function configGet(ctx: SimContext, call: FunCall): unknown {
  const key = String(param(call, 'key', 0) ?? '');
  const opts: Record<string, unknown> = { nodegroups: ctx.fleet.nodegroups, id: `${ctx.fleet.masterId}_master`, timeout: 5,
    gather_job_timeout: 10, keep_jobs_seconds: 86400, hash_type: 'sha256', token_expire: ctx.settings.tokenExpireS,
    netapi_enable_clients: ctx.settings.enabledClients, file_roots: { base: ['/srv/salt'] } };
  let node: unknown = opts;
  for (const part of key.split(String(call.kwargs['delimiter'] ?? ':'))) {
    node = node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node ?? param(call, 'default', 1) ?? '';
}

const RUNNERS: Record<string, Runner> = {
  'manage.status': manageStatus,
  'manage.up': async (ctx, call) => (await manageStatus(ctx, call)).up,
  'manage.down': async (ctx, call) => {
    const { down } = await manageStatus(ctx, call);
    if (truthy(call.kwargs['removekeys'])) for (const id of down) ctx.fleet.minions.delete(id);
    return down;
  },
  'manage.present': connected,
  'manage.list_state': connected,
  'manage.joined': connected,
  'manage.alived': connected,
  'manage.not_present': (ctx) => acceptedMinions(ctx.fleet).filter((m) => !m.up).map((m) => m.id).sort(),
  'jobs.list_jobs': listJobs,
  'jobs.list_job': withJid((ctx, jid) => ctx.jobs.listJob(jid)),
  'jobs.print_job': withJid((ctx, jid) => ({ [jid]: ctx.jobs.listJob(jid) })),
  'jobs.lookup_jid': withJid((ctx, jid, call) => ctx.jobs.lookupJid(jid, truthy(call.kwargs['missing']))),
  'jobs.exit_success': withJid((ctx, jid) => {
    const job = ctx.jobs.get(jid);
    return job ? Object.fromEntries(job.minions.map((id) => [id, job.returns.get(id)?.retcode === 0])) : {};
  }),
  'fileserver.file_list': fileList,
  'fileserver.dir_list': dirList,
  'fileserver.envs': () => ['base'],
  'config.get': configGet,
};

/** Runs a runner function; returns its value (or its exception text). */
export async function runRunner(ctx: SimContext, call: FunCall): Promise<{ jid: string; ret: unknown; success: boolean }> {
  const runner = RUNNERS[call.fun];
  if (runner === undefined) throw unexpectedError();
  const jid = ctx.jobs.newJid();
  const base = { fun: `runner.${call.fun}`, jid, user: call.user, fun_args: [...call.args, ...(Object.keys(call.kwargs).length ? [call.kwargs] : [])] };
  ctx.bus.fire(`salt/run/${jid}/new`, base);
  const ret = await runner(ctx, call);
  const success = !(typeof ret === 'string' && ret.startsWith('Exception occurred in runner'));
  ctx.bus.fire(`salt/run/${jid}/ret`, { ...base, return: ret, success });
  return { jid, ret, success };
}
