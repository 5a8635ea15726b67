/**
 * Creates and changes: validation (users vs the system principal), the `prepare` hook, sealed
 * secrets, defaults, `_created`/`_updated`, the content `_etag`, declared references checked, one
 * versioned store batch, then `afterWrite`. Without If-Match a write that lost a race to another
 * writer is redone on the fresh item (last write wins); with it, the 412 is the answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CompiledResource } from '../compile/compile';
import type { WriteOp } from '../definition/define';
import type { CallContext } from '../definition/local-api';
import type { AnyItem } from '../definition/infer';
import type { UpsertResult, WriteOptions } from '../definition/local-api';
import {
  BulkUnprocessable,
  Conflict,
  PreconditionFailed,
  ServiceUnavailable,
  Unprocessable,
  type IssuesInput,
} from '../errors';
import type { BatchWrite, Doc, Filter } from '../store/port';
import { newObjectId } from '../ids';
import { authorize, isSystem } from './access';
import type { OpsScope } from './context';
import { etagMatches, etagOf, etagsWith } from './etag';
import { mergeDeep } from './merge';
import { inItemTurn } from './item-lines';
import { getStored } from './read';
import { checkReferences, referenceIssues } from './relations';
import { scoped } from './scope';
import { sealSecrets } from '../secrets';
import { PreparedWrites } from './undo';
import { validateBody, type ValidBody } from './validate';

/**
 * How long a write without If-Match keeps trying while other writers keep changing the item. It
 * asked for last-write-wins, so losing a race is never its answer (a 412 is for If-Match alone):
 * each race it loses is another writer's commit, progress, so it tries again at once, and only a
 * write that lost RACE_ATTEMPTS races in a row, or kept losing for RACE_BUDGET_MS, is a 503 to
 * retry. A write of one item counts both from its turn in the item's line (item-lines.ts), not
 * from when it was asked: the writes of the item before it are no race it lost. The time is
 * generous because an attempt on a loaded machine (a read waiting for its process's queued
 * writes, a commit waiting for the write lock) can take a second by itself.
 */
const RACE_ATTEMPTS = 100;
const RACE_BUDGET_MS = 10_000;
/**
 * Back-off between attempts, "full jitter": a random wait up to 1 ms, doubling to at most 10 ms.
 * Short: a write of one item holds its turn while it waits, so it should try again while the
 * item is fresh, not let the other process's next write read first.
 */
const RACE_BACKOFF_MS = { first: 1, max: 10 } as const;
/** Items per batch of the many-item writes: bounded memory and transaction size. */
export const BATCH = 500;

/**
 * Runs `write` again when it lost a race (PreconditionFailed), unless the caller gave If-Match:
 * after a short jittered back-off, so writers racing for one item spread out instead of colliding
 * again (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/), until it wins
 * or has lost RACE_ATTEMPTS races or RACE_BUDGET_MS (503 with Retry-After).
 */
export async function lastWriteWins<T>(ifMatch: string | undefined, write: () => Promise<T>): Promise<T> {
  const start = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (ifMatch !== undefined || !(err instanceof PreconditionFailed)) throw err;
      const wait = Math.random() * Math.min(RACE_BACKOFF_MS.max, RACE_BACKOFF_MS.first * 2 ** (attempt - 1));
      if (attempt >= RACE_ATTEMPTS || Date.now() + wait - start >= RACE_BUDGET_MS) {
        const seconds = ((Date.now() - start) / 1000).toFixed(1);
        throw new ServiceUnavailable(
          `the item kept changing under this write (${attempt} races lost in ${seconds} s to other writers), so it was not done; try again`,
          1,
        );
      }
      await sleep(wait);
    }
  }
}

/** Defaults of server-set fields, which no user body can carry. */
function serverDefaults(res: CompiledResource): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(res.def.fields)) {
    if (!field.readonly || !('default' in field) || field.default === undefined) continue;
    out[name] = typeof field.default === 'function' ? (field.default as () => unknown)() : field.default;
  }
  return out;
}

function naturalId(res: CompiledResource, fields: Record<string, unknown>): string {
  const from = res.def.idFrom ? fields[res.def.idFrom] : fields._id;
  if (typeof from !== 'string' || from === '')
    throw new Unprocessable(`${res.name}: an id is required`, {
      [res.def.idFrom ?? '_id']: 'required field',
    });
  return from;
}

/** Runs `prepare` on a copy of the validated fields (noted in `undo`), then seals the secrets. */
async function prepared(
  s: OpsScope,
  op: WriteOp,
  body: ValidBody,
  ctx: CallContext,
  undo: PreparedWrites,
  original?: Doc,
): Promise<Record<string, unknown>> {
  const hooks = s.res.def.hooks;
  const fields = { ...body.stored };
  const out = hooks?.prepare
    ? await hooks.prepare({
        op,
        fields,
        extras: { ...body.extras },
        ctx,
        ...(original ? { original: original as AnyItem } : {}),
      })
    : fields;
  undo.note({ op, fields: { ...out }, ...(original ? { original } : {}) });
  sealSecrets(out, s.res.secretPaths, s.secrets);
  return out;
}

/** A new item from prepared fields. */
function newDoc(res: CompiledResource, fields: Record<string, unknown>, now: Date): Doc {
  const { _id: _given, _created: created, _updated: updated, ...rest } = fields;
  const given = typeof fields._id === 'string' && fields._id !== '' ? fields._id : undefined;
  const id = res.def.id === 'natural' ? naturalId(res, fields) : (given ?? newObjectId());
  // `_created` / `_updated` given only by a system import (validate.ts); otherwise now.
  const createdAt = created instanceof Date ? created : now;
  const doc: Doc = {
    _id: id,
    ...serverDefaults(res),
    ...rest,
    _created: createdAt,
    _updated: updated instanceof Date ? updated : createdAt,
  };
  if (res.softDelete) doc[res.softDelete.field] = false;
  doc._etag = etagOf(doc);
  return doc;
}

/** The next version of `original` after merging `fields`; null when it would not change. */
function nextVersion(
  res: CompiledResource,
  original: Doc,
  fields: Record<string, unknown>,
  now: Date,
  always: boolean,
): Doc | null {
  const merged = mergeDeep(original, fields, res);
  const [unchanged, next] = etagsWith(merged, '_updated', [original._updated, now]);
  if (!always && unchanged === original._etag) return null;
  merged._updated = now;
  merged._etag = next;
  return merged;
}

/** Runs `afterWrite` for every written item, in order, then `afterWriteBatch` once. */
async function afterWrites(
  s: OpsScope,
  writes: readonly { op: WriteOp; doc: Doc; original?: Doc; extras: Record<string, unknown> }[],
  ctx: CallContext,
): Promise<void> {
  const hooks = s.res.def.hooks;
  if (hooks?.afterWrite)
    for (const w of writes)
      await hooks.afterWrite({
        op: w.op,
        doc: w.doc as AnyItem,
        extras: w.extras,
        ctx,
        ...(w.original ? { original: w.original as AnyItem } : {}),
      });
  if (hooks?.afterWriteBatch && writes.length > 0)
    await hooks.afterWriteBatch({
      writes: writes.map((w) => ({
        op: w.op,
        doc: w.doc as AnyItem,
        ...(w.original ? { original: w.original as AnyItem } : {}),
      })),
      ctx,
    });
}

type CreateWrite = { op: WriteOp; doc: Doc; extras: Record<string, unknown> };

/**
 * The new items of a bulk create, each validated (fields, `prepare`, references) before anything
 * is stored. When any fails, the 422 names every document's own issues in order (Eve's bulk
 * `post_internal`: all documents validated, `_items` with one status each).
 */
async function bulkWrites(
  s: OpsScope,
  bodies: readonly Record<string, unknown>[],
  ctx: CallContext,
  system: boolean,
  undo: PreparedWrites,
): Promise<CreateWrite[]> {
  const writes: (CreateWrite | null)[] = [];
  const issues: (IssuesInput | null)[] = [];
  for (const body of bodies) {
    try {
      const valid = validateBody(s.res, body, 'create', system);
      writes.push({
        op: 'create',
        doc: newDoc(s.res, await prepared(s, 'create', valid, ctx, undo), ctx.now),
        extras: valid.extras,
      });
      issues.push(null);
    } catch (err) {
      if (!(err instanceof Unprocessable)) throw err;
      writes.push(null);
      issues.push(err.issues ?? { _body: err.message });
    }
  }
  const checked = writes.flatMap((w, i) => (w ? [{ w, i }] : []));
  (
    await referenceIssues(
      s,
      s.res,
      checked.map((c) => c.w),
    )
  ).forEach((refs, k) => {
    const at = checked[k]?.i;
    if (refs !== null && at !== undefined) issues[at] = refs;
  });
  const failed = issues.filter((i) => i !== null).length;
  if (failed > 0)
    throw new BulkUnprocessable(
      `Insertion failure: ${failed} of ${bodies.length} document(s) contain errors; nothing was stored`,
      issues,
    );
  return checked.map((c) => c.w);
}

/** `createMany`: all or none. One document fails with its own error; several, with one status each. */
export async function createItems(
  s: OpsScope,
  bodies: readonly Record<string, unknown>[],
  ctx: CallContext,
): Promise<Doc[]> {
  authorize(s.res, 'create', ctx.principal);
  const system = isSystem(ctx.principal);
  let writes: CreateWrite[] = [];
  const undo = new PreparedWrites(s, ctx);
  await undo.guard(async () => {
    if (bodies.length === 1 && bodies[0] !== undefined) {
      const valid = validateBody(s.res, bodies[0], 'create', system);
      writes = [
        {
          op: 'create',
          doc: newDoc(s.res, await prepared(s, 'create', valid, ctx, undo), ctx.now),
          extras: valid.extras,
        },
      ];
      await checkReferences(s, s.res, writes);
    } else writes = await bulkWrites(s, bodies, ctx, system, undo);
    await s.store.write(writes.map((w) => ({ op: 'insert', collection: s.res.name, doc: w.doc })));
  });
  await afterWrites(s, writes, ctx);
  return writes.map((w) => w.doc);
}

/** `patch` and `replace` of one item. */
export async function changeItem(
  s: OpsScope,
  op: 'patch' | 'replace',
  id: string,
  body: Record<string, unknown>,
  ctx: CallContext,
  o: WriteOptions = {},
): Promise<Doc> {
  authorize(s.res, op, ctx.principal);
  const system = isSystem(ctx.principal);
  const valid = validateBody(s.res, body, op === 'patch' ? 'patch' : 'replace', system);
  const undo = new PreparedWrites(s, ctx);
  const attempt = (): Promise<{ original: Doc; next: Doc }> =>
    undo.guard(async () => {
      const original = await getStored(s, id, { showDeleted: system && o.showDeleted === true });
      if (o.ifMatch !== undefined && !etagMatches(o.ifMatch, String(original._etag)))
        throw new PreconditionFailed();
      const fields = await prepared(s, op, valid, ctx, undo, original);
      const next =
        op === 'patch'
          ? nextVersion(s.res, original, fields, ctx.now, true)
          : replacement(s.res, original, fields, ctx.now);
      if (next === null) throw new Error('unreachable: a forced version is never null');
      await checkReferences(s, s.res, [{ doc: next, original }]);
      await s.store.write([
        { op: 'replace', collection: s.res.name, doc: next, ifEtag: String(original._etag) },
      ]);
      return { original, next };
    });
  const done = await inItemTurn(s, id, () => lastWriteWins(o.ifMatch, attempt));
  await afterWrites(s, [{ op, doc: done.next, original: done.original, extras: valid.extras }], ctx);
  return done.next;
}

/** A replacement keeps `_id`, `_created` and the server-set fields (readonly ones, the soft-delete flag). */
function replacement(res: CompiledResource, original: Doc, fields: Record<string, unknown>, now: Date): Doc {
  const keep: Record<string, unknown> = res.softDelete
    ? { [res.softDelete.field]: original[res.softDelete.field] }
    : {};
  for (const name of res.readonlyFields)
    if (name in original && !(name in fields)) keep[name] = original[name];
  const doc: Doc = { ...keep, ...fields, _id: original._id, _created: original._created, _updated: now };
  doc._etag = etagOf(doc);
  return doc;
}

/** Writes one batch of prepared versions; the caller retries the whole batch when it lost a race. */
async function writeVersions(s: OpsScope, versions: readonly { doc: Doc; original?: Doc }[]): Promise<void> {
  await checkReferences(s, s.res, versions);
  const batch: BatchWrite[] = versions.map((v) =>
    v.original
      ? { op: 'replace', collection: s.res.name, doc: v.doc, ifEtag: String(v.original._etag) }
      : { op: 'insert', collection: s.res.name, doc: v.doc },
  );
  await s.store.write(batch);
}

/** A patch of a stored item, ready for `afterWrites`. */
type PatchVersion = { op: WriteOp; doc: Doc; original: Doc; extras: Record<string, unknown> };

/**
 * Patches `originals` with the fields `bodyOf` gives each (undefined: left alone) and writes the
 * versions that change in one batch; resolves them.
 */
async function patchVersions(
  s: OpsScope,
  originals: readonly Doc[],
  bodyOf: (original: Doc) => ValidBody | undefined,
  ctx: CallContext,
  undo: PreparedWrites,
): Promise<PatchVersion[]> {
  const versions: PatchVersion[] = [];
  for (const original of originals) {
    const valid = bodyOf(original);
    if (valid === undefined) continue;
    const fields = await prepared(s, 'patch', valid, ctx, undo, original);
    const next = nextVersion(s.res, original, fields, ctx.now, false);
    if (next) versions.push({ op: 'patch', doc: next, original, extras: valid.extras });
  }
  await writeVersions(s, versions);
  return versions;
}

/** `patchMany`: the same change to every match, batch by batch in `_id` order; unchanged items are skipped. */
export async function patchItems(
  s: OpsScope,
  where: Filter,
  body: Record<string, unknown>,
  ctx: CallContext,
  o: Pick<WriteOptions, 'showDeleted'> = {},
): Promise<number> {
  authorize(s.res, 'patch', ctx.principal);
  const system = isSystem(ctx.principal);
  const valid = validateBody(s.res, body, 'patch', system);
  let after = '';
  let written = 0;
  for (;;) {
    const page = { $and: [where, { _id: { $gt: after } }] };
    const undo = new PreparedWrites(s, ctx);
    const done = await lastWriteWins(undefined, () =>
      undo.guard(async () => {
        const originals = await s.store.find(
          s.res.name,
          scoped(s.res, page, system && o.showDeleted === true),
          { sort: [['_id', 1]], limit: BATCH },
        );
        const versions = await patchVersions(s, originals, () => valid, ctx, undo);
        return { originals, versions };
      }),
    );
    await afterWrites(s, done.versions, ctx);
    written += done.versions.length;
    const last = done.originals[done.originals.length - 1];
    if (!last || done.originals.length < BATCH) return written;
    after = last._id;
  }
}

/**
 * Runs a batch that inserts some of `versions`. Another writer (a second process recording the
 * same job return) may have created one of those ids between this attempt's read and its write:
 * the store refuses the insert as a duplicate `_id`. That is a lost race like a changed etag, so
 * it becomes PreconditionFailed and `lastWriteWins` redoes the attempt, which then finds the
 * item and merges into it: create-or-merge, whoever comes first. A duplicate that no re-read can
 * explain (none of the inserted ids exists) is a real conflict and stays one.
 */
async function insertedOrRaced(
  s: OpsScope,
  versions: readonly { doc: Doc; original?: Doc }[],
  write: () => Promise<void>,
): Promise<void> {
  try {
    await write();
  } catch (err) {
    const inserted = versions.filter((v) => v.original === undefined).map((v) => v.doc._id);
    if (!(err instanceof Conflict) || err.field !== '_id' || inserted.length === 0) throw err;
    const found = await s.store.find(s.res.name, { _id: { $in: inserted } }, { projection: { _id: 1 } });
    if (found.length === 0) throw err;
    throw new PreconditionFailed(`'${found[0]?._id ?? ''}' was created by another writer meanwhile`);
  }
}

/**
 * `upsertMany` (system): new ids are created, existing items patched with the given fields. Safe
 * against concurrent upserts of the same ids from other requests or processes: an insert that
 * loses to another writer is retried as a merge (`insertedOrRaced`).
 */
export async function upsertItems(
  s: OpsScope,
  items: readonly (Record<string, unknown> & { _id: string })[],
  ctx: CallContext,
): Promise<UpsertResult> {
  authorize(s.res, 'upsert', ctx.principal);
  const created: string[] = [];
  const updated: string[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    const chunk = items.slice(i, i + BATCH);
    const undo = new PreparedWrites(s, ctx);
    const done = await lastWriteWins(undefined, () =>
      undo.guard(async () => {
        const stored = await s.store.find(s.res.name, { _id: { $in: chunk.map((c) => c._id) } });
        const byId = new Map(stored.map((d) => [d._id, d]));
        const versions: { op: WriteOp; doc: Doc; original?: Doc; extras: Record<string, unknown> }[] = [];
        for (const item of chunk) {
          const original = byId.get(item._id);
          if (original === undefined) {
            const valid = validateBody(s.res, item, 'create', true);
            versions.push({
              op: 'create',
              doc: newDoc(s.res, await prepared(s, 'create', valid, ctx, undo), ctx.now),
              extras: valid.extras,
            });
            continue;
          }
          const { _id: _same, ...fields } = item;
          const valid = validateBody(s.res, fields, 'patch', true);
          const next = nextVersion(
            s.res,
            original,
            await prepared(s, 'patch', valid, ctx, undo, original),
            ctx.now,
            false,
          );
          if (next) versions.push({ op: 'patch', doc: next, original, extras: valid.extras });
        }
        await insertedOrRaced(s, versions, () => writeVersions(s, versions));
        return versions;
      }),
    );
    for (const v of done) (v.original ? updated : created).push(v.doc._id);
    await afterWrites(s, done, ctx);
  }
  return { created, updated };
}

/**
 * `patchEach` (system): the stored items among `ids` get the fields `change` decides from their
 * stored version, in one batch per {@link BATCH}. The decision is made inside the attempt, so a
 * race lost to another writer decides again on the item that writer left.
 */
export async function patchEachItem(
  s: OpsScope,
  ids: readonly string[],
  change: (item: AnyItem) => Record<string, unknown> | undefined,
  ctx: CallContext,
): Promise<string[]> {
  authorize(s.res, 'upsert', ctx.principal);
  const written: string[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const chunk = ids.slice(i, i + BATCH);
    const undo = new PreparedWrites(s, ctx);
    const done = await lastWriteWins(undefined, () =>
      undo.guard(async () => {
        const stored = await s.store.find(s.res.name, { _id: { $in: chunk } });
        return patchVersions(
          s,
          stored,
          (original) => {
            const fields = change(original as AnyItem);
            return fields === undefined ? undefined : validateBody(s.res, fields, 'patch', true);
          },
          ctx,
          undo,
        );
      }),
    );
    written.push(...done.map((v) => v.doc._id));
    await afterWrites(s, done, ctx);
  }
  return written;
}
