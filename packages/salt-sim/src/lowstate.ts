/**
 * Executes lowstate chunks (salt-api notes §0 "Order of checks", §2): master running
 * (503) -> known client (400) -> enabled client (400) -> authorization (401) -> the client.
 * Results are collected into the `return` list; `local_batch` contributes one element
 * per minion return.
 */
import { CLIENTS, funCall, type SimContext } from './context';
import { SimError } from './http-errors';
import { pyMatch, resolveTarget } from './match';
import { runRunner } from './runners';
import type { Session } from './sessions';
import { runWheel } from './wheel';
import { runLocal, runLocalAsync, runLocalBatch } from './local';

/** external_auth perms: regexes for execution functions, `@runner`/`@wheel`/`@<module>` for the rest. */
function authorize(session: Session, client: string, fun: string): void {
  const perms = session.perms;
  const strings = perms.filter((p): p is string => typeof p === 'string');
  const mod = `@${fun.split('.')[0] ?? ''}`;
  let allowed: boolean;
  if (client.startsWith('runner')) allowed = strings.some((p) => ['@runner', '@runners', mod].includes(p) || (p === '@jobs' && fun.startsWith('jobs.')));
  else if (client.startsWith('wheel')) allowed = strings.some((p) => p === '@wheel' || p === mod);
  else {
    allowed = strings.some((p) => !p.startsWith('@') && pyMatch(`${p}$`, fun))
      || perms.some((p) => typeof p === 'object' && Object.values(p).some((funs) => funs.some((f) => pyMatch(`${f}$`, fun))));
  }
  if (!allowed) {
    throw new SimError(401, client.startsWith('local') ? 'Authorization error occurred.' : `Authentication failure of type "token" occurred for user ${session.user}.`);
  }
}

function requireArgs(chunk: Record<string, unknown>, names: string[], fname: string): void {
  const given = names.filter((n) => chunk[n] !== undefined).length;
  // salt.utils.args.format_call -> SaltInvocationError -> 400.
  if (given < names.length) throw new SimError(400, `${fname} takes at least ${names.length} arguments (${given} given)`);
}

async function runChunk(ctx: SimContext, chunk: Record<string, unknown>, session: Session): Promise<unknown[]> {
  const client = String(chunk['client'] ?? '');
  const fun = String(chunk['fun'] ?? '');
  ctx.stats.byFun[`${client}:${fun}`] = (ctx.stats.byFun[`${client}:${fun}`] ?? 0) + 1;
  if (!ctx.settings.masterRunning) throw new SimError(503, 'Salt Master is not available.');
  if (!(CLIENTS as readonly string[]).includes(client)) throw new SimError(400, `Invalid client specified: '${client}'`);
  if (!ctx.settings.enabledClients.includes(client)) {
    throw new SimError(400, `Client disabled: '${client}'. Add to 'netapi_enable_clients' master config option to enable.`);
  }
  requireArgs(chunk, client.startsWith('local') ? ['tgt', 'fun'] : ['fun'], client.startsWith('local') ? 'cmd' : 'cmd_sync');
  authorize(session, client, fun);
  switch (client) {
    case 'local': return [await runLocal(ctx, chunk, session.user)];
    case 'local_async': return [runLocalAsync(ctx, chunk, session.user)];
    case 'local_batch': return runLocalBatch(ctx, chunk, session.user);
    case 'local_subset': {
      const up = resolveTarget(ctx.fleet, chunk['tgt'], String(chunk['tgt_type'] ?? 'glob')).minions.filter((id) => ctx.fleet.minions.get(id)?.up);
      const subset = up.sort(() => Math.random() - 0.5).slice(0, Number(chunk['subset'] ?? 3));
      return [await runLocal(ctx, { ...chunk, tgt: subset, tgt_type: 'list' }, session.user)];
    }
    case 'runner': {
      const r = await runRunner(ctx, funCall(chunk, session.user, true));
      const full = chunk['full_return'] === true;
      return [full ? { tag: `salt/run/${r.jid}/ret`, data: { fun: `runner.${fun}`, jid: r.jid, user: session.user, return: r.ret, success: r.success } } : r.ret];
    }
    case 'runner_async': {
      const jid = ctx.jobs.newJid();
      ctx.jobs.later(0, () => void runRunner(ctx, funCall(chunk, session.user, true)).catch(() => undefined));
      return [{ tag: `salt/run/${jid}`, jid }];
    }
    case 'wheel': return [runWheel(ctx, funCall(chunk, session.user, true))];
    case 'wheel_async': {
      const r = runWheel(ctx, funCall(chunk, session.user, true));
      return [{ jid: r.data['jid'], tag: r.tag }];
    }
    default: return [{}]; // ssh: no roster in the simulator, nothing matches
  }
}

/** Runs every chunk in order and concatenates their results (the `return` list). */
export async function runLowstate(ctx: SimContext, chunks: Array<Record<string, unknown>>, session: Session): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const chunk of chunks) out.push(...(await runChunk(ctx, chunk, session)));
  return out;
}
