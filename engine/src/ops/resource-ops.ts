/**
 * The operations of one resource — list, get, create, patch, replace, remove — with no Express in
 * them, so custom handlers, the sync and the scheduler reuse them. Soft delete is enforced here at
 * one choke point (`scoped`), secrets are sealed here before anything is stored.
 */
import type { z } from 'zod';
import type { CompiledResource } from '../compile/compile';
import { issuesOf } from '../compile/zod';
import type { CallContext, ListQuery, ListResult, ReadScope, ResourceOps, Runtime, WriteOp } from '../definition/define';
import { NotFound, PreconditionFailed, Unprocessable } from '../errors';
import type { Doc, Filter } from '../store/port';
import { newObjectId } from '../store/sqlite/ids';
import { etagMatches, etagOf } from './etag';
import { mergeDeep } from './merge';
import { sealSecrets } from './secrets';

const META_KEYS = new Set(['_created', '_updated', '_etag', '_links', '_status']);

/** Operations of one resource, plus bulk create. */
export interface FullResourceOps extends ResourceOps {
  createMany(bodies: readonly Record<string, unknown>[], ctx: CallContext): Promise<Doc[]>;
  /** The soft-delete scope added to a filter (the one choke point every read goes through). */
  scoped(filter: Filter, scope?: ReadScope): Filter;
}

/** Builds the operations of a compiled resource over the runtime's store. */
export function createResourceOps(res: CompiledResource, runtime: Runtime): FullResourceOps {
  const store = runtime.store;
  const hooks = res.def.hooks ?? {};

  const scoped = (filter: Filter, scope?: ReadScope): Filter => {
    const sd = res.softDelete;
    if (!sd || scope?.showDeleted || mentions(filter, sd.field)) return filter;
    // An equality (not `$ne: true`) so the leading index key serves it; every stored item has the
    // flag: creates set it and ensureCollections backfills items written without it.
    const hide = { [sd.field]: false };
    return Object.keys(filter).length === 0 ? hide : { $and: [filter, hide] };
  };

  const findOne = async (id: string, scope?: ReadScope): Promise<Doc> => {
    const [doc] = await store.find(res.name, scoped({ _id: id }, scope), { limit: 1 });
    if (!doc) throw new NotFound(`${res.itemTitle} "${id}" was not found`);
    return doc;
  };

  const validate = (schema: z.ZodType, body: Record<string, unknown>, op: WriteOp): Record<string, unknown> => {
    const issues: Record<string, string> = {};
    for (const key of Object.keys(body)) {
      if (META_KEYS.has(key) || (key === '_id' && !(op === 'create' && res.def.id === 'natural'))) issues[key] = 'field is read-only';
      else if (res.readonlyFields.has(key) || key === res.softDelete?.field) issues[key] = 'field is read-only';
      else if (op === 'patch' && key in res.def.fields && !res.patchable.has(key)) issues[key] = 'field cannot be changed by PATCH';
    }
    const { _id: givenId, ...rest } = body;
    const bodyWithoutReadonly = Object.fromEntries(Object.entries(rest).filter(([k]) => !(k in issues)));
    const parsed = schema.safeParse(bodyWithoutReadonly);
    if (!parsed.success) Object.assign(issues, issuesOf(parsed.error));
    if (Object.keys(issues).length > 0) throw new Unprocessable(`${res.name}: the body has ${Object.keys(issues).length} invalid field(s)`, issues);
    const data = parsed.data as Record<string, unknown>;
    return givenId === undefined ? data : { ...data, _id: givenId };
  };

  const splitExtras = (fields: Record<string, unknown>) => {
    const extras: Record<string, unknown> = {};
    const stored: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) (res.writeOnlyFields.includes(k) ? extras : stored)[k] = v;
    return { extras, stored };
  };

  const prepare = async (op: WriteOp, body: Record<string, unknown>, ctx: CallContext, original?: Doc) => {
    const fields = validate(op === 'patch' ? res.validators.patch : res.validators.create, body, op);
    const { extras, stored } = splitExtras(fields);
    const prepared = hooks.prepare ? await hooks.prepare({ op, fields: stored, extras, ctx, ...(original ? { original } : {}) }) : stored;
    sealSecrets(prepared, res.secretPaths, runtime.secrets);
    return { prepared, extras };
  };

  const naturalId = (fields: Record<string, unknown>): string => {
    const from = res.def.idFrom ? fields[res.def.idFrom] : fields._id;
    if (typeof from !== 'string' || from === '') throw new Unprocessable(`${res.name}: an id is required`, { [res.def.idFrom ?? '_id']: 'required field' });
    return from;
  };

  const finish = (doc: Record<string, unknown>): Doc => {
    const full = doc as Doc;
    full._etag = etagOf(full);
    return full;
  };

  /** Writes a whole new version, only if nobody else wrote since `original` was read. */
  const writeVersion = async (original: Doc, next: Doc): Promise<void> => {
    const result = await store.update(res.name, { _id: original._id, _etag: original._etag }, next);
    if (result.matched === 0) throw new PreconditionFailed(`${res.itemTitle} "${original._id}" was changed by another request; read it again`);
  };

  const checkIfMatch = (doc: Doc, ifMatch?: string) => {
    if (ifMatch !== undefined && !etagMatches(ifMatch, String(doc._etag))) throw new PreconditionFailed();
  };

  const ops: FullResourceOps = {
    name: res.name,
    scoped,
    async list(query: ListQuery, scope?: ReadScope): Promise<ListResult> {
      const filter = scoped(query.filter, scope);
      const [items, total] = await Promise.all([
        store.find(res.name, filter, {
          sort: query.sort,
          skip: (query.page - 1) * query.maxResults,
          limit: query.maxResults,
          ...(query.projection ? { projection: query.projection } : {}),
        }),
        store.count(res.name, filter),
      ]);
      return { items, total };
    },
    get: findOne,
    async createMany(bodies, ctx) {
      const docs: Doc[] = [];
      const extrasOf: Record<string, unknown>[] = [];
      for (const body of bodies) {
        const { prepared, extras } = await prepare('create', body, ctx);
        const id = res.def.id === 'natural' ? naturalId(prepared) : newObjectId();
        const doc: Record<string, unknown> = { _id: id, ...serverDefaults(res), ...prepared, _created: ctx.now, _updated: ctx.now };
        if (res.softDelete) doc[res.softDelete.field] = false;
        docs.push(finish(doc));
        extrasOf.push(extras);
      }
      await store.insert(res.name, docs);
      for (const [i, doc] of docs.entries()) {
        if (hooks.afterWrite) await hooks.afterWrite({ op: 'create', doc, extras: extrasOf[i] ?? {}, ctx });
      }
      return docs;
    },
    async create(body, ctx) {
      const [doc] = await ops.createMany([body], ctx);
      if (!doc) throw new Error('create returned nothing');
      return doc;
    },
    async patch(id, body, ctx, ifMatch) {
      const { original, next, extras } = await lastWriteWins(ifMatch, async () => {
        const original = await findOne(id);
        checkIfMatch(original, ifMatch);
        const { prepared, extras } = await prepare('patch', body, ctx, original);
        const next = finish({ ...mergeDeep(original, prepared, res), _updated: ctx.now });
        await writeVersion(original, next);
        return { original, next, extras };
      });
      if (hooks.afterWrite) await hooks.afterWrite({ op: 'patch', doc: next, original, extras, ctx });
      return next;
    },
    async replace(id, body, ctx, ifMatch) {
      const { original, next, extras } = await lastWriteWins(ifMatch, async () => {
        const original = await findOne(id);
        checkIfMatch(original, ifMatch);
        const { prepared, extras } = await prepare('replace', body, ctx, original);
        // A replacement is the client's fields: server-set ones (readonly, the soft-delete flag) stay.
        const keep: Record<string, unknown> = res.softDelete ? { [res.softDelete.field]: original[res.softDelete.field] } : {};
        for (const name of res.readonlyFields) if (name in original) keep[name] = original[name];
        const next = finish({ _id: original._id, ...keep, ...prepared, _created: original._created, _updated: ctx.now });
        await writeVersion(original, next);
        return { original, next, extras };
      });
      if (hooks.afterWrite) await hooks.afterWrite({ op: 'replace', doc: next, original, extras, ctx });
      return next;
    },
    async remove(id, ctx, ifMatch) {
      const doc = await findOne(id);
      checkIfMatch(doc, ifMatch);
      if (hooks.beforeDelete) await hooks.beforeDelete({ doc, ctx });
      if (res.softDelete) {
        await writeVersion(doc, finish({ ...doc, [res.softDelete.field]: true, _updated: ctx.now }));
      } else {
        await store.delete(res.name, { _id: id });
        for (const field of res.mediaFields) if (typeof doc[field] === 'string') await store.media.delete(doc[field]);
      }
      if (hooks.afterDelete) await hooks.afterDelete({ doc, ctx });
    },
    async removeMany(filter, ctx) {
      const docs = await store.find(res.name, scoped(filter), { projection: { _id: 1 } });
      for (const doc of docs) await ops.remove(doc._id, ctx);
      return docs.length;
    },
  };
  return ops;
}

/** Attempts of a write without If-Match that keeps losing races to other writers. */
const RACE_ATTEMPTS = 3;

/**
 * Without If-Match a client asks for last-write-wins: a write that lost a race with another writer
 * (the fleet sync, a concurrent request) is redone on the fresh item instead of failing with 412.
 * With If-Match, the 412 is the answer the client asked for.
 */
async function lastWriteWins<T>(ifMatch: string | undefined, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (ifMatch !== undefined || !(err instanceof PreconditionFailed) || attempt >= RACE_ATTEMPTS) throw err;
    }
  }
}

/** Defaults of server-set (readonly) fields, which no create body can carry. */
function serverDefaults(res: CompiledResource): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(res.def.fields)) {
    if (!field.readonly || !('default' in field) || field.default === undefined) continue;
    out[name] = typeof field.default === 'function' ? (field.default as () => unknown)() : field.default;
  }
  return out;
}

/** Whether a filter names `field` anywhere (then the caller decides about soft-deleted items). */
function mentions(filter: unknown, field: string): boolean {
  if (Array.isArray(filter)) return filter.some((f) => mentions(f, field));
  if (filter === null || typeof filter !== 'object') return false;
  return Object.entries(filter).some(([k, v]) => k === field || mentions(v, field));
}
