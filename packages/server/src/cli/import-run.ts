/**
 * The work of `fleet import`: each collection of the original application that is a resource here
 * is read (in the order its references need: a host after its groups and organization), turned
 * into items (import-item.ts) and created through the local API as the system principal, so every
 * item is validated, sealed, referenced and versioned as any other write; a batch of
 * {@link IMPORT_BATCH} at a time. Media files go first through the media service; an item that
 * is refused takes its files back. Items already present are left as they are (an import run twice
 * adds nothing), except the built-in initial items (the settings), which take the original's values.
 */
import {
  BulkUnprocessable,
  HttpError,
  systemContext,
  type CallContext,
  type CompiledResource,
  type Engine,
} from '@fleet/engine';
import type * as MongoAdapter from '@fleet/engine/mongo';
import type { AdoptingVpn } from './import-vpn';
import { itemOf, type EveValues, type ImportItem } from './import-item';

/** Items read, checked and created together: one `createMany`, one transaction. */
export const IMPORT_BATCH = 500;
/** Refusals kept per collection for the report (the count is always exact). */
const REFUSALS_SHOWN = 20;

/** What became of one collection. */
export interface CollectionReport {
  readonly collection: string;
  read: number;
  created: number;
  present: number;
  updated: number;
  hidden: number;
  files: number;
  refused: number;
  readonly refusals: { readonly id: string; readonly why: string }[];
  /** Fields left out with `--drop-unknown`. */
  readonly dropped: string[];
}

/** A collection's report before anything was read. */
export function emptyReport(collection: string): CollectionReport {
  return {
    collection,
    read: 0,
    created: 0,
    present: 0,
    updated: 0,
    hidden: 0,
    files: 0,
    refused: 0,
    refusals: [],
    dropped: [],
  };
}

/** How the import treats what it meets. */
export interface ImportOptions {
  /** Leave out top-level fields this API does not declare instead of refusing the item. */
  readonly dropUnknown: boolean;
  /** Only these collections (default: every one both sides have). */
  readonly only?: ReadonlySet<string>;
  /** The adapter's conversion of BSON values. */
  readonly values: EveValues;
}

/** The resources in an order where each one's referenced resources (checked ones) come first. */
export function importOrder(resources: readonly CompiledResource[]): CompiledResource[] {
  const byName = new Map(resources.map((r) => [r.name, r] as const));
  const done = new Set<string>();
  const out: CompiledResource[] = [];
  const visit = (res: CompiledResource, path: ReadonlySet<string>): void => {
    if (done.has(res.name) || path.has(res.name)) return;
    for (const ref of res.references) {
      const target = byName.get(ref.to);
      if (ref.exists && target && target !== res) visit(target, new Set([...path, res.name]));
    }
    done.add(res.name);
    out.push(res);
  };
  for (const res of resources) visit(res, new Set());
  return out;
}

/** Items of a self-referencing resource (groups' subgroups) ordered so referenced ones come first. */
function referencedFirst(res: CompiledResource, items: ImportItem[]): ImportItem[] {
  const self = res.references.filter((r) => r.to === res.name && r.exists).map((r) => r.path);
  if (self.length === 0) return items;
  const byId = new Map(items.map((i) => [i.id, i] as const));
  const placed = new Set<string>();
  const out: ImportItem[] = [];
  const place = (item: ImportItem, seen: ReadonlySet<string>): void => {
    if (placed.has(item.id) || seen.has(item.id)) return;
    for (const path of self)
      for (const id of [item.data[path]].flat())
        if (typeof id === 'string' && byId.has(id))
          place(byId.get(id) as ImportItem, new Set([...seen, item.id]));
    placed.add(item.id);
    out.push(item);
  };
  for (const item of items) place(item, new Set());
  return out;
}

/** Everything one collection's import needs. */
interface Run {
  readonly engine: Engine;
  readonly res: CompiledResource;
  readonly eve: MongoAdapter.EveSource;
  readonly vpn: AdoptingVpn;
  readonly ctx: CallContext;
  readonly options: ImportOptions;
  readonly report: CollectionReport;
}

function refuse(run: Run, id: string, why: string): void {
  run.report.refused++;
  if (run.report.refusals.length < REFUSALS_SHOWN) run.report.refusals.push({ id, why });
}

/** Why an error refused an item, in the API's words (issues flattened to `field: message`). */
function reasonOf(error: unknown): string {
  if (error instanceof BulkUnprocessable || !(error instanceof HttpError)) return String(error);
  const issues = error.issues ? `: ${JSON.stringify(error.issues)}` : '';
  return `${error.message}${issues}`;
}

/** Copies the item's media files into this API's media store; the new ids replace the original's. */
async function copyFiles(run: Run, item: ImportItem): Promise<string[]> {
  const copied: string[] = [];
  for (const [field, original] of item.files) {
    const file = await run.eve.file(original);
    if (file === null) throw new Error(`${field}: the original has no GridFS file ${original}`);
    const info = await run.engine.runtime.media.put(file.content, file);
    copied.push(info.id);
    item.data[field] = info.id;
  }
  run.report.files += copied.length;
  return copied;
}

/** Creates the batch's new items all at once; if that is refused, one by one to find which. */
async function createBatch(run: Run, items: ImportItem[]): Promise<ImportItem[]> {
  const api = run.engine.runtime.resources.get(run.res.name);
  const ready: { item: ImportItem; files: string[] }[] = [];
  for (const item of items) {
    try {
      ready.push({ item, files: await copyFiles(run, item) });
    } catch (error) {
      refuse(run, item.id, reasonOf(error));
    }
  }
  try {
    await api.createMany(
      ready.map((r) => r.item.data),
      run.ctx,
    );
    return ready.map((r) => r.item);
  } catch {
    const created: ImportItem[] = [];
    for (const { item, files } of ready) {
      try {
        await api.create(item.data, run.ctx);
        created.push(item);
      } catch (error) {
        refuse(run, item.id, reasonOf(error));
        for (const id of files) await run.engine.runtime.media.delete(id);
      }
    }
    return created;
  }
}

/** One batch: present items skipped (initial ones patched), new ones created, hidden ones hidden again. */
async function importBatch(run: Run, items: ImportItem[]): Promise<void> {
  const api = run.engine.runtime.resources.get(run.res.name);
  const ids = items.map((i) => i.id);
  const present = new Set(
    (
      await api.find({ where: { _id: { $in: ids } }, projection: { _id: 1 }, showDeleted: true }, run.ctx)
    ).map((d) => d._id),
  );
  const initial = new Set(
    (run.res.def.initialItems?.(run.engine.runtime.config) ?? []).map((i) => String(i._id)),
  );
  for (const item of items.filter((i) => present.has(i.id))) {
    if (!initial.has(item.id)) {
      run.report.present++;
      continue;
    }
    const { _id: _same, _created: _c, _updated: _u, ...fields } = item.data;
    await api.patch(item.id, fields, run.ctx).then(
      () => run.report.updated++,
      (error: unknown) => refuse(run, item.id, reasonOf(error)),
    );
  }
  for (const item of items)
    if (run.res.name === 'hosts') run.vpn.rememberAccount(item.id, item.data.vpnsrv_representation);
  const created = await createBatch(
    run,
    items.filter((i) => !present.has(i.id)),
  );
  run.report.created += created.length;
  for (const item of created.filter((i) => i.hidden)) {
    await api.delete(item.id, run.ctx);
    run.report.hidden++;
  }
}

/** An organization's stored record, under the name its `prepare` will ask for (the record's, else the item's). */
function rememberOrganization(vpn: AdoptingVpn, data: Readonly<Record<string, unknown>>): void {
  const record = data.vpnsrv_representation;
  const given =
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>).name : undefined;
  const name =
    typeof given === 'string' && given !== '' ? given : typeof data.name === 'string' ? data.name : '';
  if (typeof data.vpn_manager === 'string') vpn.rememberOrganization(data.vpn_manager, name, record);
}

/** Imports one collection of the original into its resource. */
export async function importCollection(
  engine: Engine,
  res: CompiledResource,
  eve: MongoAdapter.EveSource,
  vpn: AdoptingVpn,
  options: ImportOptions,
): Promise<CollectionReport> {
  const report = emptyReport(res.name);
  const run: Run = { engine, res, eve, vpn, ctx: systemContext(engine.runtime), options, report };
  const selfReferencing = res.references.some((r) => r.to === res.name && r.exists);
  let batch: ImportItem[] = [];
  const all: ImportItem[] = [];
  for await (const raw of eve.documents(res.name)) {
    report.read++;
    const item = itemOf(res, raw, options);
    for (const field of 'dropped' in item ? item.dropped : [])
      if (!report.dropped.includes(field)) report.dropped.push(field);
    if ('refused' in item) {
      refuse(run, item.id, item.refused);
      continue;
    }
    if (res.name === 'vpn_organizations') rememberOrganization(vpn, item.data);
    if (selfReferencing) all.push(item);
    else batch.push(item);
    if (batch.length >= IMPORT_BATCH) {
      await importBatch(run, batch);
      batch = [];
    }
  }
  if (selfReferencing) batch = referencedFirst(res, all);
  for (let i = 0; i < batch.length; i += IMPORT_BATCH)
    await importBatch(run, batch.slice(i, i + IMPORT_BATCH));
  return report;
}
