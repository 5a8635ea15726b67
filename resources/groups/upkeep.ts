/**
 * Keeps the rule membership of derived.ts as hosts and groups change. Every update runs alone
 * across instances (a lease; in this process, one after the other) and reads what it derives
 * from fresh under it, so two instances never leave an older answer last. It is idempotent: an
 * update that finds nothing to change writes nothing.
 *
 * - A batch of host writes that created hosts or changed their grains: those hosts are matched
 *   against every computed rule and their keys rewritten.
 * - A batch of group writes: the rules in use are compared with the computed ones; a new rule is
 *   matched against every host (its keys added), a rule no group has any more is removed.
 * - A read of a group whose rule is not computed yet (an update lost to a crash, or a store made
 *   before membership was kept): the same comparison, first.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceUnavailable, systemContext, type Runtime } from '@fleet/engine';
import { group_rules, host_rules } from './derived';
import { type HostView, type Rule, ruleKey, ruleOf, RuleSet } from './rules';

const LEASE = 'group-membership';
/** Matching a new rule against 100,000 hosts takes seconds; the lease outlives it. */
const LEASE_TTL_MS = 120_000;
/** How long an update waits for another instance's before it gives up (503). */
const LEASE_WAIT_MS = 120_000;
/** Hosts read per page when a rule is matched against all of them, and items per write. */
const PAGE = 1000;
const CHUNK = 500;

const holders = new WeakMap<Runtime, string>();
const queues = new WeakMap<Runtime, Promise<unknown>>();

/** Runs `work` after this runtime's earlier membership work, holding the lease across instances. */
function exclusively<T>(runtime: Runtime, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(runtime) ?? Promise.resolve()).then(() => underLease(runtime, work));
  queues.set(
    runtime,
    run.catch(() => undefined),
  );
  return run;
}

async function underLease<T>(runtime: Runtime, work: () => Promise<T>): Promise<T> {
  const holder = holders.get(runtime) ?? `membership-${randomUUID()}`;
  holders.set(runtime, holder);
  const deadline = Date.now() + LEASE_WAIT_MS;
  for (let attempt = 0; !(await runtime.leases.acquire(LEASE, holder, LEASE_TTL_MS)); attempt += 1) {
    if (Date.now() >= deadline)
      throw new ServiceUnavailable('group membership is being updated by another instance; try again', 5);
    await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
  }
  try {
    return await work();
  } finally {
    await runtime.leases.release(LEASE, holder).catch(() => false);
  }
}

const sys = (runtime: Runtime) => systemContext(runtime);

/** The computed rules, by key. */
async function computedRules(runtime: Runtime): Promise<Map<string, Rule>> {
  const docs = await runtime.resources.of(group_rules).find({}, sys(runtime));
  return new Map(
    docs.map((d) => [d._id, ruleOf({ regex: d.regex ?? undefined, grain: d.grain ?? undefined }) ?? {}]),
  );
}

/** The rules the groups have, by key. */
async function rulesInUse(runtime: Runtime): Promise<Map<string, Rule>> {
  const groups = await runtime.resources.get('groups').find({ projection: { info: 1 } }, sys(runtime));
  const out = new Map<string, Rule>();
  for (const g of groups) {
    const rule = ruleOf(g.info as Parameters<typeof ruleOf>[0]);
    if (rule) out.set(ruleKey(rule), rule);
  }
  return out;
}

/** Every host (soft-deleted ones too: reads leave them out), page by page; names alone when no rule reads grains. */
async function* allHosts(runtime: Runtime, withGrains: boolean): AsyncGenerator<HostView[]> {
  const hosts = runtime.resources.get('hosts');
  if (!withGrains) {
    yield (await hosts.ids({}, sys(runtime), { showDeleted: true })).map((id) => ({ _id: id }));
    return;
  }
  for (let after = ''; ;) {
    const page = await hosts.find(
      {
        where: { _id: { $gt: after } },
        projection: { grain: 1 },
        sort: [['_id', 1]],
        limit: PAGE,
        showDeleted: true,
        view: 'item',
      },
      sys(runtime),
    );
    yield page;
    const last = page[page.length - 1];
    if (last === undefined || page.length < PAGE) return;
    after = last._id;
  }
}

/** Sets the keys of these hosts (an empty list removes the host's item). */
async function writeKeys(runtime: Runtime, keys: ReadonlyMap<string, readonly string[]>): Promise<void> {
  const api = runtime.resources.of(host_rules);
  const entries = [...keys];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    const items = chunk.filter(([, k]) => k.length > 0).map(([id, k]) => ({ _id: id, rules: [...k] }));
    const empty = chunk.filter(([, k]) => k.length === 0).map(([id]) => id);
    if (items.length > 0) await api.upsertMany(items, sys(runtime));
    if (empty.length > 0) await api.deleteMany({ _id: { $in: empty } }, sys(runtime));
  }
}

/** The stored keys of these hosts. */
async function storedKeys(runtime: Runtime, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const docs = await runtime.resources
      .of(host_rules)
      .find({ where: { _id: { $in: ids.slice(i, i + CHUNK) } } }, sys(runtime));
    for (const d of docs) out.set(d._id, d.rules);
  }
  return out;
}

/** Matches `rules` against every host and adds their keys to the hosts that match, then files them as computed. */
async function addRules(runtime: Runtime, rules: ReadonlyMap<string, Rule>): Promise<void> {
  const set = new RuleSet(rules);
  const matched = new Map<string, string[]>();
  for await (const page of allHosts(runtime, set.needsGrains))
    for (const host of page) {
      const keys = set.keysOf(host);
      if (keys.length > 0) matched.set(host._id, keys);
    }
  const stored = await storedKeys(runtime, [...matched.keys()]);
  const next = new Map<string, string[]>();
  for (const [id, keys] of matched) next.set(id, [...new Set([...(stored.get(id) ?? []), ...keys])].sort());
  await writeKeys(runtime, next);
  await runtime.resources.of(group_rules).upsertMany(
    [...rules].map(([key, r]) => ({ _id: key, regex: r.regex ?? null, grain: r.grain ?? null })),
    sys(runtime),
  );
}

/** Takes `keys` off every host that has them, then forgets the rules. */
async function removeRules(runtime: Runtime, keys: readonly string[]): Promise<void> {
  const gone = new Set(keys);
  for (;;) {
    const docs = await runtime.resources
      .of(host_rules)
      .find({ where: { rules: { $in: [...keys] } }, limit: CHUNK }, sys(runtime));
    if (docs.length === 0) break;
    await writeKeys(runtime, new Map(docs.map((d) => [d._id, d.rules.filter((k) => !gone.has(k))])));
  }
  await runtime.resources.of(group_rules).deleteMany({ _id: { $in: [...keys] } }, sys(runtime));
}

/** Brings the computed rules in line with the groups' rules (under the lease). */
async function reconcileRules(runtime: Runtime): Promise<void> {
  const [inUse, computed] = await Promise.all([rulesInUse(runtime), computedRules(runtime)]);
  const added = new Map([...inUse].filter(([key]) => !computed.has(key)));
  const removed = [...computed.keys()].filter((key) => !inUse.has(key));
  if (added.size > 0) await addRules(runtime, added);
  if (removed.length > 0) await removeRules(runtime, removed);
}

/** Matches these hosts, read fresh, against every computed rule and rewrites their keys (under the lease). */
async function refreshHosts(runtime: Runtime, ids: readonly string[]): Promise<void> {
  const rules = await computedRules(runtime);
  if (rules.size === 0) return;
  const set = new RuleSet(rules);
  const hosts = runtime.resources.get('hosts');
  const found: HostView[] = set.needsGrains
    ? await hosts.find(
        { where: { _id: { $in: [...ids] } }, projection: { grain: 1 }, view: 'item', showDeleted: true },
        sys(runtime),
      )
    : (await hosts.ids({ _id: { $in: [...ids] } }, sys(runtime), { showDeleted: true })).map((id) => ({
        _id: id,
      }));
  const stored = await storedKeys(runtime, ids);
  const next = new Map<string, string[]>();
  for (const host of found) {
    const keys = set.keysOf(host);
    const before = stored.get(host._id) ?? [];
    if (keys.join('\n') !== before.join('\n')) next.set(host._id, keys);
  }
  await writeKeys(runtime, next);
}

/** What a batch of host writes hands over (the hosts resource's `afterWriteBatch`). */
export interface HostWrites {
  readonly writes: readonly { readonly doc: HostView; readonly original?: { readonly grain?: unknown } }[];
  readonly ctx: { readonly runtime: Runtime };
}

/** After host writes: the hosts that are new or whose grains changed get their rule keys again. */
export async function afterHostWrites({ writes, ctx }: HostWrites): Promise<void> {
  const changed = writes
    .filter(
      (w) => w.original === undefined || JSON.stringify(w.original.grain) !== JSON.stringify(w.doc.grain),
    )
    .map((w) => w.doc._id);
  if (changed.length > 0) await exclusively(ctx.runtime, () => refreshHosts(ctx.runtime, changed));
}

/** After group writes that may have changed the rules in use: new rules are computed, unused ones removed. */
export async function afterRuleChanges(runtime: Runtime): Promise<void> {
  await exclusively(runtime, () => reconcileRules(runtime));
}

/** Before a read of these rules' hosts: any not computed yet (a lost update, an older store) is computed first. */
export async function ensureComputed(runtime: Runtime, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const known = await runtime.resources.of(group_rules).ids({ _id: { $in: [...keys] } }, sys(runtime));
  if (known.length < new Set(keys).size) await afterRuleChanges(runtime);
}
