/**
 * Executes lowstate chunks the way `NetapiClient.run` does (salt/netapi/rest_cherrypy/app.py,
 * §2): master running (503) -> known client (400) -> enabled client (400, 3006+) -> the client
 * method's own arguments (`format_call`: runner/wheel without `fun` 400; `LocalClient.cmd`
 * without `tgt` or `fun` a TypeError, the JSON 500) -> the master's token check and
 * authorization -> the client. Results are collected into the `return` list; `local_batch`
 * contributes one element per minion return.
 */
import { CLIENTS, MAX_RECORDED_LOWSTATES, type SimContext } from './context';
import { text } from './scalars';
import { SimError, unexpectedError } from './http-errors';
import { pyMatch, resolveTarget } from './match';
import { hasRunner, runRunner } from './runners';
import type { Session } from './sessions';
import { atLeast } from './version';
import { runWheel } from './wheel';
import { runLocal, runLocalAsync, runLocalBatch } from './local';

/**
 * A refusal by the master. Runner and wheel refusals are TokenAuthenticationError (401 in every
 * version). `local` ones are AuthenticationError / AuthorizationError raised by
 * `LocalClient.pub`: 2018.3.0-2018.3.2's `LocalClient.run_job` wraps every exception of `pub`
 * into a SaltClientError (`except Exception as general_exception`), which `hypermedia_handler`
 * answers with its catch-all JSON 500 (it maps Authentication- and AuthorizationError to 401,
 * but never sees them); 2018.3.3's `run_job` re-raises those two first, so they are the 401.
 */
function refused(ctx: SimContext, client: string, localMessage: string, otherMessage: string): SimError {
  if (!client.startsWith('local')) return new SimError(401, otherMessage);
  return atLeast(ctx.settings.masterVersion, '2018.3.3')
    ? new SimError(401, localMessage)
    : unexpectedError();
}

/** `LoadAuth.check_authentication` for a token: the Salt token must still be valid. */
function authenticate(ctx: SimContext, session: Session, client: string): void {
  if (ctx.sessions.saltTokenValid(session)) return;
  throw refused(
    ctx,
    client,
    'Authentication error occurred.',
    'Authentication failure of type "token" occurred.',
  );
}

/**
 * A runner's or wheel's grant in the dict form, `{'@runner': ['manage.status']}` or
 * `{'@manage': ['status']}`: Salt 2018.3 `CkMinions.spec_check` (salt/utils/minions.py) takes a
 * one-key dict whose key is `@<module>` (its list matched against the function's name) or
 * `@<form>` / `@<form>s` (matched against `module.function`), each entry a regex of the whole name.
 */
function grantedByDict(perms: Session['perms'], form: 'runner' | 'wheel', fun: string): boolean {
  const [mod = '', name = ''] = fun.split('.');
  return perms.some((p) => {
    if (typeof p !== 'object') return false;
    const entries = Object.entries(p);
    const [key, funs] = entries[0] ?? ['', []];
    if (entries.length !== 1 || !key.startsWith('@')) return false;
    if (key.slice(1) === mod && funs.some((f) => pyMatch(`${f}$`, name))) return true;
    return (key === `@${form}` || key === `@${form}s`) && funs.some((f) => pyMatch(`${f}$`, fun));
  });
}

/** external_auth perms: regexes for execution functions, `@runner`/`@wheel`/`@<module>` for the rest. */
function authorize(ctx: SimContext, session: Session, client: string, fun: string): void {
  const perms = session.perms;
  const strings = perms.filter((p): p is string => typeof p === 'string');
  const mod = `@${fun.split('.')[0] ?? ''}`;
  let allowed: boolean;
  if (client.startsWith('runner'))
    allowed =
      strings.some(
        (p) => ['@runner', '@runners', mod].includes(p) || (p === '@jobs' && fun.startsWith('jobs.')),
      ) || grantedByDict(perms, 'runner', fun);
  else if (client.startsWith('wheel'))
    allowed = strings.some((p) => p === '@wheel' || p === mod) || grantedByDict(perms, 'wheel', fun);
  else {
    // A dict keyed by a minion target lists the functions allowed there; `@` keys are no target.
    allowed =
      strings.some((p) => !p.startsWith('@') && pyMatch(`${p}$`, fun)) ||
      perms.some(
        (p) =>
          typeof p === 'object' &&
          Object.entries(p).some(
            ([target, funs]) => !target.startsWith('@') && funs.some((f) => pyMatch(`${f}$`, fun)),
          ),
      );
  }
  if (!allowed)
    throw refused(
      ctx,
      client,
      'Authorization error occurred.',
      `Authentication failure of type "token" occurred for user ${session.user}.`,
    );
}

/**
 * The client method's own parameters. `NetapiClient.runner(fun, ...)` / `wheel(fun, ...)` go
 * through `format_call`: no `fun` is a SaltInvocationError (400). `local(*args, **kwargs)` passes
 * everything on to `LocalClient.cmd(tgt, fun, ...)` (or `run_job` / `cmd_batch`), where a
 * missing `tgt` or `fun` is a plain TypeError: the catch-all JSON 500.
 */
function requireArgs(client: string, chunk: Record<string, unknown>): void {
  if (client.startsWith('local')) {
    if (chunk['tgt'] === undefined || chunk['fun'] === undefined) throw unexpectedError();
    return;
  }
  if (chunk['fun'] === undefined)
    throw new SimError(400, `${client.replace(/_async$/, '')} takes at least 1 argument (0 given)`);
}

async function dispatch(
  ctx: SimContext,
  client: string,
  chunk: Record<string, unknown>,
  session: Session,
): Promise<unknown[]> {
  switch (client) {
    case 'local':
      return [await runLocal(ctx, chunk, session.user)];
    case 'local_async':
      return [runLocalAsync(ctx, chunk, session.user)];
    case 'local_batch':
      return runLocalBatch(ctx, chunk, session.user);
    case 'local_subset': {
      const up = resolveTarget(ctx.fleet, chunk['tgt'], text(chunk['tgt_type'], 'glob')).minions.filter(
        (id) => ctx.fleet.minions.get(id)?.up,
      );
      const subset = up.sort(() => Math.random() - 0.5).slice(0, Number(chunk['subset'] ?? 3));
      return [await runLocal(ctx, { ...chunk, tgt: subset, tgt_type: 'list' }, session.user)];
    }
    case 'runner': {
      const r = await runRunner(ctx, chunk, session.user);
      const fun = text(chunk['fun']);
      return [
        chunk['full_return'] === true
          ? {
              tag: `salt/run/${r.jid}/ret`,
              data: {
                fun: `runner.${fun}`,
                jid: r.jid,
                user: session.user,
                return: r.ret,
                success: r.success,
              },
            }
          : r.ret,
      ];
    }
    case 'runner_async': {
      if (!hasRunner(text(chunk['fun']))) throw unexpectedError();
      const jid = ctx.jobs.newJid();
      ctx.jobs.later(0, () => void runRunner(ctx, chunk, session.user).catch(() => undefined));
      return [{ tag: `salt/run/${jid}`, jid }];
    }
    case 'wheel':
      return [runWheel(ctx, chunk, session.user)];
    case 'wheel_async': {
      const r = runWheel(ctx, chunk, session.user);
      return [{ jid: r.data['jid'], tag: r.tag }];
    }
    default:
      return [{}]; // ssh: no roster in the simulator, nothing matches
  }
}

async function runChunk(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  session: Session,
): Promise<unknown[]> {
  const client = text(chunk['client']);
  const fun = text(chunk['fun']);
  ctx.stats.byFun[`${client}:${fun}`] = (ctx.stats.byFun[`${client}:${fun}`] ?? 0) + 1;
  ctx.stats.lowstates.push(withoutToken(chunk));
  if (ctx.stats.lowstates.length > MAX_RECORDED_LOWSTATES) ctx.stats.lowstates.shift();
  if (!ctx.settings.masterRunning) throw new SimError(503, 'Salt Master is not available.');
  if (!(CLIENTS as readonly string[]).includes(client))
    throw new SimError(400, `Invalid client specified: '${client}'`);
  if (atLeast(ctx.settings.masterVersion, '3006') && !ctx.settings.enabledClients.includes(client)) {
    throw new SimError(
      400,
      `Client disabled: '${client}'. Add to 'netapi_enable_clients' master config option to enable.`,
    );
  }
  requireArgs(client, chunk);
  authenticate(ctx, session, client);
  authorize(ctx, session, client, fun);
  return dispatch(ctx, client, chunk, session);
}

/** A received chunk as recorded in the stats: the session's token is not kept. */
function withoutToken(chunk: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(chunk).filter(([k]) => k !== 'token'));
}

/** Runs every chunk in order and concatenates their results (the `return` list). */
export async function runLowstate(
  ctx: SimContext,
  chunks: Array<Record<string, unknown>>,
  session: Session,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const chunk of chunks) out.push(...(await runChunk(ctx, chunk, session)));
  return out;
}
