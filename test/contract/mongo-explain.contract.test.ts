/**
 * Live, when `MONGO_URL` is set (any topology): the server's own plan of a 25-item page of every
 * resource's default sort, and of the service's hot reads, on 2,000 documents per collection.
 * `explain('executionStats')` must show no in-memory SORT stage and about 25 documents examined:
 * the index (ending with the `_id` tie-breaker) gives the page in order. The rule without a server
 * is test/mongo/index-coverage.test.ts.
 */
import mongoose from 'mongoose';
import type { CompiledResource } from '../../engine/src/compile/compile';
import { planFind, uniqueKeys, type MongoStore } from '../../engine/src/store/mongo';
import type { Doc, ScalarType } from '../../engine/src/store/port';
import { defaultSorts, resources, serviceReads, type Read } from '../mongo/helpers/sorts';
import { liveSuite, openThrowaway } from './mongo-live';

/** Documents per collection: enough that a page read in index order differs from a scan. */
const DOCS = 2000;
const PAGE = 25;

/** A value of `type` for document `i`: spread out, with repeats (ties) for the tie-breaker to break. */
function valueOf(type: ScalarType, i: number): unknown {
  if (type === 'datetime') return new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000);
  if (type === 'integer' || type === 'number') return i % 50;
  if (type === 'boolean') return i % 2 === 0;
  return `v${String(i % 37).padStart(2, '0')}`;
}

/** Documents carrying every scalar path the resource's indexes and sorts name (and the soft-delete flag). */
function documentsOf(res: CompiledResource): Doc[] {
  const paths = Object.entries(res.collection.scalarPaths);
  const unique = new Set(
    res.collection.indexes.filter((ix) => ix.unique).flatMap((ix) => ix.fields.map(([p]) => p)),
  );
  return Array.from({ length: DOCS }, (_, i) => {
    const doc: Doc = { _id: `${res.name}-${String(i).padStart(5, '0')}` };
    for (const [path, type] of paths) {
      const parts = path.split('.');
      let node: Record<string, unknown> = doc;
      for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[parts[parts.length - 1] ?? path] = unique.has(path) ? `u${i}` : valueOf(type, i);
    }
    doc._created = valueOf('datetime', i);
    doc._updated = valueOf('datetime', DOCS - i);
    if (res.softDelete) doc[res.softDelete.field] = false;
    return doc;
  });
}

/** Every stage of the winning plan (classic and slot-based engines, shards included; rejected plans left out). */
function stages(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) stages(item, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'stage' && typeof value === 'string') out.push(value);
      else if (key !== 'rejectedPlans') stages(value, out);
    }
  }
  return out;
}

liveSuite('explain of the planned sorts', 'any MongoDB 4.4+; creates and drops one database', () => {
  let mongo: MongoStore;
  let client: mongoose.mongo.MongoClient;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openThrowaway();
    mongo = opened.mongo;
    close = () => opened.store.close();
    client = new mongoose.mongo.MongoClient(opened.url);
    for (const res of resources) {
      await mongo.ensureCollection(res.collection);
      await mongo.insert(res.name, documentsOf(res));
    }
    await mongo.backgroundSettled();
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await close?.();
  });

  const reads = [...defaultSorts, ...serviceReads];
  test.each(reads.map((r) => [`${r.resource}: ${r.label}`, r] as const))('%s', async (_label, r: Read) => {
    const res = resources.find((x) => x.name === r.resource);
    if (!res) throw new Error(`no resource ${r.resource}`);
    const sample: Record<string, unknown> = documentsOf(res)[7] ?? {};
    const at = (path: string): unknown =>
      path
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], sample);
    const filter = Object.fromEntries(r.equal.map((path) => [path, at(path)]));
    const plan = planFind(res.name, filter, { sort: r.sort, limit: PAGE }, uniqueKeys(res.collection));
    const explained = await client
      .db()
      .collection(res.name)
      .find(plan.filter, plan.options)
      .explain('executionStats');
    const found = stages((explained.queryPlanner as { winningPlan?: unknown } | undefined)?.winningPlan);
    expect(found.length).toBeGreaterThan(0);
    expect({ sort: plan.options.sort, stages: found.filter((s) => /^sort$/i.test(s)) }).toEqual({
      sort: plan.options.sort,
      stages: [],
    });
    const stats = explained.executionStats as { totalDocsExamined: number; nReturned: number };
    expect(stats.nReturned).toBeGreaterThan(0);
    // About one page: the documents the index hands over in order, nothing sorted away.
    expect(stats.totalDocsExamined).toBeLessThanOrEqual(PAGE + 5);
  });
});
