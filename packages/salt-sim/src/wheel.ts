/**
 * Wheel `key.*` functions (salt/runners/manage.py; signatures of salt/wheel/key.py, 2018.3):
 * list_all / list / name_match / finger / finger_master / print / accept / reject / delete
 * (+ the `_dict` variants). Matching is a glob on the id; accept/reject/delete return
 * `name_match(match)` *after* the move (so delete is normally `{}`) and fire `salt/key` events.
 * Arguments are taken the way `SyncClientMixin._low` takes them (argspec.ts `wheelCall`): top-level
 * keys, or `arg` and `kwarg` together; a lone `kwarg` is ignored. The HTTP answer is the whole
 * ret event (`ClearFuncs.wheel`).
 */
import { PyError, sig, wheelCall, type Signature } from './argspec';
import {
  exceptionText,
  masterNow,
  raiseIfBroken,
  typeErrorReturn,
  type FunCall,
  type SimContext,
} from './context';
import { text, truthy } from './scalars';
import { pemFinger, makePublicKey, RSA_2048_SPKI_BYTES } from './keys';
import { globToRegExp } from './match';
import type { KeyState } from './model';
import { createRng } from '@fleet/fixtures';

const DIRS: Record<KeyState, string> = {
  accepted: 'minions',
  pending: 'minions_pre',
  rejected: 'minions_rejected',
  denied: 'minions_denied',
};
const LIST_ALIASES: Record<string, KeyState> = {
  acc: 'accepted',
  accepted: 'accepted',
  pre: 'pending',
  un: 'pending',
  unaccepted: 'pending',
  rej: 'rejected',
  rejected: 'rejected',
  den: 'denied',
  denied: 'denied',
};

type Wheel = (ctx: SimContext, call: FunCall) => unknown;

const match = (call: FunCall): unknown => call.values['match'];

function sortCi(ids: string[]): string[] {
  return ids.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

/** The master's own key pair (stable per master id). */
function masterKeys(ctx: SimContext): Record<string, string> {
  const rng = createRng([...ctx.fleet.masterId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  return {
    'master.pem': makePublicKey(rng.bytes(1190)),
    'master.pub': makePublicKey(rng.bytes(RSA_2048_SPKI_BYTES)),
  };
}

/** `Key.name_match`: status dir -> matching ids, only dirs with matches; `full` adds local keys. */
function nameMatch(ctx: SimContext, match: string, full: boolean): Record<string, string[]> {
  const re = globToRegExp(match);
  const out: Record<string, string[]> = {};
  for (const m of ctx.fleet.minions.values()) {
    if (!re.test(m.id)) continue;
    (out[DIRS[m.key]] ??= []).push(m.id);
    if (m.deniedPem !== undefined && m.key !== 'denied') (out['minions_denied'] ??= []).push(m.id);
  }
  if (full) {
    const local = Object.keys(masterKeys(ctx)).filter((k) => re.test(k));
    if (local.length > 0) out['local'] = local;
  }
  for (const ids of Object.values(out)) sortCi(ids);
  return out;
}

function listAll(ctx: SimContext): Record<string, string[]> {
  const out: Record<string, string[]> = {
    minions: [],
    minions_pre: [],
    minions_rejected: [],
    minions_denied: [],
  };
  for (const m of ctx.fleet.minions.values()) {
    out[DIRS[m.key]]?.push(m.id);
    if (m.deniedPem !== undefined && m.key !== 'denied') out['minions_denied']?.push(m.id);
  }
  for (const ids of Object.values(out)) sortCi(ids);
  return { ...out, local: ['master.pem', 'master.pub'] };
}

function keysBy(
  ctx: SimContext,
  call: FunCall,
  render: (id: string, pem: string) => string,
): Record<string, Record<string, string>> {
  const matched = nameMatch(ctx, String(match(call)), true);
  const local = masterKeys(ctx);
  return Object.fromEntries(
    Object.entries(matched).map(([dir, ids]) => [
      dir,
      Object.fromEntries(ids.map((id) => [id, render(id, local[id] ?? pemIn(ctx, id, dir) ?? '')])),
    ]),
  );
}

/** The PEM of `id` in key directory `dir` (a denied key may sit beside the accepted one). */
function pemIn(ctx: SimContext, id: string, dir: string): string | undefined {
  const m = ctx.fleet.minions.get(id);
  if (m === undefined) return undefined;
  return dir === 'minions_denied' && m.key !== 'denied' ? m.deniedPem : m.pem;
}

/** Moves matching keys from `from` dirs to `to`, firing `salt/key` events. */
function move(ctx: SimContext, ids: string[], from: KeyState[], to: KeyState, act: string): void {
  for (const id of ids) {
    const m = ctx.fleet.minions.get(id);
    if (m === undefined || !from.includes(m.key)) continue;
    m.key = to;
    m.up = to === 'accepted';
    ctx.bus.fire('salt/key', { result: true, act, id });
    if (to === 'accepted') {
      // The minion re-authenticates and starts once its key is accepted.
      ctx.jobs.later(ctx.settings.returnDelayMs, () => {
        ctx.bus.fire(`salt/minion/${id}/start`, {
          id,
          cmd: '_minion_event',
          pretag: null,
          data: `Minion ${id} started at ${new Date().toUTCString()}`,
          tag: `salt/minion/${id}/start`,
        });
      });
    }
  }
}

function byGlob(call: FunCall): { match: string; ids: (ctx: SimContext) => string[] } {
  const glob = String(match(call));
  return {
    match: glob,
    ids: (ctx) => [...ctx.fleet.minions.keys()].filter((id) => globToRegExp(glob).test(id)),
  };
}

function byDict(call: FunCall): string[] {
  const dict = match(call);
  if (dict === null || typeof dict !== 'object') return [];
  return Object.values(dict as Record<string, unknown>).flatMap((v) =>
    Array.isArray(v) ? v.map(String) : [],
  );
}

function mover(
  to: KeyState,
  act: string,
  base: KeyState[],
  flags: Record<string, KeyState>,
  dict: boolean,
): Wheel {
  return (ctx, call) => {
    const from = [
      ...base,
      ...Object.entries(flags)
        .filter(([flag]) => truthy(call.values[flag]))
        .map(([, s]) => s),
    ];
    const ids = dict ? byDict(call) : byGlob(call).ids(ctx);
    move(ctx, ids, from, to, act);
    return dict ? dictMatch(ctx, ids) : nameMatch(ctx, byGlob(call).match, false);
  };
}

function dictMatch(ctx: SimContext, ids: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of ids) {
    const m = ctx.fleet.minions.get(id);
    if (m) (out[DIRS[m.key]] ??= []).push(id);
  }
  return out;
}

function deleter(dict: boolean): Wheel {
  return (ctx, call) => {
    const ids = dict ? byDict(call) : byGlob(call).ids(ctx);
    for (const id of ids)
      if (ctx.fleet.minions.delete(id)) ctx.bus.fire('salt/key', { result: true, act: 'delete', id });
    return dict ? dictMatch(ctx, ids) : nameMatch(ctx, byGlob(call).match, false);
  };
}

const MATCH = ['match'];
const WHEELS: Record<string, { sig: Signature; run: Wheel }> = {
  'key.list_all': { sig: sig('list_all'), run: listAll },
  'key.list': {
    sig: sig('list_', MATCH),
    run: (ctx, call) => {
      const state = LIST_ALIASES[String(match(call))];
      if (state === undefined) return listAll(ctx);
      return { [DIRS[state]]: listAll(ctx)[DIRS[state]] ?? [] };
    },
  },
  'key.name_match': {
    sig: sig('name_match', MATCH),
    run: (ctx, call) => nameMatch(ctx, String(match(call)), true),
  },
  'key.finger': {
    sig: sig('finger', MATCH, { hash_type: null }),
    run: (ctx, call) =>
      keysBy(ctx, call, (_id, pem) => pemFinger(pem, text(call.values['hash_type'], 'sha256'))),
  },
  'key.finger_master': {
    sig: sig('finger_master', [], { hash_type: null }),
    run: (ctx, call) => ({
      local: {
        'master.pub': pemFinger(
          masterKeys(ctx)['master.pub'] ?? '',
          text(call.values['hash_type'], 'sha256'),
        ),
      },
    }),
  },
  'key.print': { sig: sig('key_str', MATCH), run: (ctx, call) => keysBy(ctx, call, (_id, pem) => pem) },
  'key.accept': {
    sig: sig('accept', MATCH, { include_rejected: false, include_denied: false }),
    run: mover(
      'accepted',
      'accept',
      ['pending'],
      { include_rejected: 'rejected', include_denied: 'denied' },
      false,
    ),
  },
  'key.accept_dict': {
    sig: sig('accept_dict', MATCH, { include_rejected: false, include_denied: false }),
    run: mover(
      'accepted',
      'accept',
      ['pending'],
      { include_rejected: 'rejected', include_denied: 'denied' },
      true,
    ),
  },
  'key.reject': {
    sig: sig('reject', MATCH, { include_accepted: false, include_denied: false }),
    run: mover(
      'rejected',
      'reject',
      ['pending'],
      { include_accepted: 'accepted', include_denied: 'denied' },
      false,
    ),
  },
  'key.reject_dict': {
    sig: sig('reject_dict', MATCH, { include_accepted: false, include_denied: false }),
    run: mover(
      'rejected',
      'reject',
      ['pending'],
      { include_accepted: 'accepted', include_denied: 'denied' },
      true,
    ),
  },
  'key.delete': { sig: sig('delete', MATCH), run: deleter(false) },
  'key.delete_dict': { sig: sig('delete_dict', MATCH), run: deleter(true) },
};

/** `_low`'s try block: verify_fun, the argument binding, the call; an exception becomes text. */
function callWheel(
  ctx: SimContext,
  fun: string,
  chunk: Record<string, unknown>,
  user: string,
): { ret: unknown; success: boolean } {
  const wheel = WHEELS[fun];
  // salt.utils.lazy.verify_fun raises inside _low's try: a 200 with the exception text.
  if (wheel === undefined)
    return {
      ret: exceptionText('wheel', fun, 'CommandExecutionError', `'${fun}' is not available.`),
      success: false,
    };
  try {
    const bound = wheelCall(wheel.sig, chunk);
    raiseIfBroken(ctx, fun);
    return {
      ret: wheel.run(ctx, { fun, values: bound.values, funArgs: bound.funArgs, user }),
      success: true,
    };
  } catch (err) {
    if (!(err instanceof PyError)) throw err;
    return err.pyClass === 'TypeError'
      ? typeErrorReturn(ctx, 'wheel', fun, err.message)
      : { ret: exceptionText('wheel', fun, err.pyClass, err.message), success: false };
  }
}

/**
 * Runs a wheel lowstate chunk and builds the ret event salt-api returns for it. The master's
 * wheel handler has popped `fun` and the token; every other key reaches `_low`.
 */
export function runWheel(
  ctx: SimContext,
  chunk: Record<string, unknown>,
  user: string,
): { tag: string; data: Record<string, unknown> } {
  const fun = text(chunk['fun']);
  const low = Object.fromEntries(Object.entries(chunk).filter(([k]) => k !== 'fun' && k !== 'token'));
  const jid = ctx.jobs.newJid();
  const tag = `salt/wheel/${jid}`;
  const base = { fun: `wheel.${fun}`, jid, tag, user };
  ctx.bus.fire(`${tag}/new`, base);
  const { ret, success } = callWheel(ctx, fun, { ...low, cmd: 'wheel', full_return: true }, user);
  const data = {
    ...base,
    _stamp: new Date(masterNow(ctx)).toISOString().slice(0, 23) + '000',
    return: ret,
    success,
  };
  ctx.bus.fire(`${tag}/ret`, data);
  return { tag, data };
}
