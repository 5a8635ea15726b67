/**
 * Wheel `key.*` functions (salt-api notes §5): list_all / list / finger / finger_master /
 * print / accept / reject / delete (+ the `_dict` variants). Matching is a glob on the id;
 * accept/reject/delete return `name_match(match)` *after* the move (so delete is normally
 * `{}`) and fire `salt/key` events. The HTTP answer is the whole ret event.
 */
import { exceptionText, param, truthy, type FunCall, type SimContext } from './context';
import { unexpectedError } from './http-errors';
import { pemFinger, makePublicKey, RSA_2048_SPKI_BYTES } from './keys';
import { globToRegExp } from './match';
import type { KeyState } from './model';
import { createRng } from './prng';

const DIRS: Record<KeyState, string> = { accepted: 'minions', pending: 'minions_pre', rejected: 'minions_rejected', denied: 'minions_denied' };
const LIST_ALIASES: Record<string, KeyState> = { acc: 'accepted', accepted: 'accepted', pre: 'pending', un: 'pending',
  unaccepted: 'pending', rej: 'rejected', rejected: 'rejected', den: 'denied', denied: 'denied' };

type Wheel = (ctx: SimContext, call: FunCall) => unknown;

function sortCi(ids: string[]): string[] {
  return ids.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
}

/** The master's own key pair (stable per master id). */
function masterKeys(ctx: SimContext): Record<string, string> {
  const rng = createRng([...ctx.fleet.masterId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  return { 'master.pem': makePublicKey(rng.bytes(1190)), 'master.pub': makePublicKey(rng.bytes(RSA_2048_SPKI_BYTES)) };
}

/** `Key.name_match`: status dir -> matching ids, only dirs with matches; `full` adds local keys. */
function nameMatch(ctx: SimContext, match: string, full: boolean): Record<string, string[]> {
  const re = globToRegExp(match);
  const out: Record<string, string[]> = {};
  for (const m of ctx.fleet.minions.values()) if (re.test(m.id)) (out[DIRS[m.key]] ??= []).push(m.id);
  if (full) {
    const local = Object.keys(masterKeys(ctx)).filter((k) => re.test(k));
    if (local.length > 0) out['local'] = local;
  }
  for (const ids of Object.values(out)) sortCi(ids);
  return out;
}

function listAll(ctx: SimContext): Record<string, string[]> {
  const out: Record<string, string[]> = { minions: [], minions_pre: [], minions_rejected: [], minions_denied: [] };
  for (const m of ctx.fleet.minions.values()) out[DIRS[m.key]]?.push(m.id);
  for (const ids of Object.values(out)) sortCi(ids);
  return { ...out, local: ['master.pem', 'master.pub'] };
}

function keysBy(ctx: SimContext, call: FunCall, render: (id: string, pem: string) => string): Record<string, Record<string, string>> {
  const matched = nameMatch(ctx, String(param(call, 'match', 0) ?? '*'), true);
  const local = masterKeys(ctx);
  return Object.fromEntries(Object.entries(matched).map(([dir, ids]) => [dir,
    Object.fromEntries(ids.map((id) => [id, render(id, local[id] ?? ctx.fleet.minions.get(id)?.pem ?? '')]))]));
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
        ctx.bus.fire(`salt/minion/${id}/start`, { id, cmd: '_minion_event', pretag: null, data: `Minion ${id} started at ${new Date().toUTCString()}`, tag: `salt/minion/${id}/start` });
      });
    }
  }
}

function byGlob(call: FunCall): { match: string; ids: (ctx: SimContext) => string[] } {
  const match = String(param(call, 'match', 0) ?? '');
  return { match, ids: (ctx) => [...ctx.fleet.minions.keys()].filter((id) => globToRegExp(match).test(id)) };
}

function byDict(call: FunCall): string[] {
  const match = param(call, 'match', 0);
  if (match === null || typeof match !== 'object') return [];
  return Object.values(match as Record<string, unknown>).flatMap((v) => (Array.isArray(v) ? v.map(String) : []));
}

function mover(to: KeyState, act: string, base: KeyState[], flags: Record<string, KeyState>, dict: boolean): Wheel {
  return (ctx, call) => {
    const from = [...base, ...Object.entries(flags).filter(([flag]) => truthy(call.kwargs[flag])).map(([, s]) => s)];
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
    for (const id of ids) if (ctx.fleet.minions.delete(id)) ctx.bus.fire('salt/key', { result: true, act: 'delete', id });
    return dict ? dictMatch(ctx, ids) : nameMatch(ctx, byGlob(call).match, false);
  };
}

const WHEELS: Record<string, Wheel> = {
  'key.list_all': listAll,
  'key.list': (ctx, call) => {
    const status = String(param(call, 'match', 0) ?? 'all');
    const state = LIST_ALIASES[status];
    if (state === undefined) return listAll(ctx);
    return { [DIRS[state]]: listAll(ctx)[DIRS[state]] ?? [] };
  },
  'key.finger': (ctx, call) => keysBy(ctx, call, (_id, pem) => pemFinger(pem, String(call.kwargs['hash_type'] ?? 'sha256'))),
  'key.finger_master': (ctx) => ({ local: { 'master.pub': pemFinger(masterKeys(ctx)['master.pub'] ?? '') } }),
  'key.print': (ctx, call) => keysBy(ctx, call, (_id, pem) => pem),
  'key.accept': mover('accepted', 'accept', ['pending'], { include_rejected: 'rejected', include_denied: 'denied' }, false),
  'key.accept_dict': mover('accepted', 'accept', ['pending', 'rejected', 'denied'], {}, true),
  'key.reject': mover('rejected', 'reject', ['pending'], { include_accepted: 'accepted', include_denied: 'denied' }, false),
  'key.reject_dict': mover('rejected', 'reject', ['pending', 'accepted', 'denied'], {}, true),
  'key.delete': deleter(false),
  'key.delete_dict': deleter(true),
};

/** Runs a wheel function and builds the ret event salt-api returns for it. */
export function runWheel(ctx: SimContext, call: FunCall): { tag: string; data: Record<string, unknown> } {
  const wheel = WHEELS[call.fun];
  if (wheel === undefined) throw unexpectedError();
  const jid = ctx.jobs.newJid();
  const tag = `salt/wheel/${jid}`;
  const base = { fun: `wheel.${call.fun}`, jid, tag, user: call.user };
  ctx.bus.fire(`${tag}/new`, base);
  let ret: unknown;
  let success = true;
  if (['key.accept', 'key.reject', 'key.delete', 'key.print'].includes(call.fun) && param(call, 'match', 0) === undefined) {
    ret = exceptionText('wheel', call.fun, `TypeError: ${call.fun.split('.')[1] ?? ''}() missing 1 required positional argument: 'match'`);
    success = false;
  } else ret = wheel(ctx, call);
  const data = { ...base, _stamp: new Date().toISOString().slice(0, 23) + '000', return: ret, success };
  ctx.bus.fire(`${tag}/ret`, data);
  return { tag, data };
}
