/**
 * One document of the original application as the item `fleet import` creates: BSON values as the
 * API holds them (ObjectIds as 24-hex ids, references included), Eve's bookkeeping left out (its
 * `_etag` is recomputed from the content, as every write here does; `_links`, `_status` and
 * versioning fields are not stored data), `_created` / `_updated` kept, the soft-delete flag turned
 * into a hide after the create, and media ids listed for their files to be copied.
 */
import type { CompiledResource } from '@fleet/engine';
import type * as MongoAdapter from '@fleet/engine/mongo';

/** The adapter's value conversion, handed in by the command (which loads the driver only when run). */
export type EveValues = Pick<typeof MongoAdapter, 'fromEve' | 'UnimportableValue'>;

/** Eve's own fields: not the item's data (https://docs.python-eve.org/en/stable/config.html). */
const EVE_META = new Set([
  '_etag',
  '_links',
  '_status',
  '_version',
  '_latest_version',
  '_id_document',
  '_deleted',
]);
/** Meta fields the system principal gives on create: the item's own history. */
const HISTORY = new Set(['_id', '_created', '_updated']);

/** An item ready to create, or why the document is refused. */
export type ImportItem = {
  readonly id: string;
  /** The create body (`_id`, `_created`, `_updated` included). */
  readonly data: Record<string, unknown>;
  /** Media fields and the original's GridFS file id in each. */
  readonly files: readonly (readonly [field: string, original: string])[];
  /** Hidden by soft delete in the original: hidden again once created. */
  readonly hidden: boolean;
  /** Top-level fields left out (`--drop-unknown`). */
  readonly dropped: readonly string[];
};

/** Why a document was refused before any write. */
export type Refused = { readonly id: string; readonly refused: string };

/** The document as an item of `res` (see above). */
export function itemOf(
  res: CompiledResource,
  raw: Record<string, unknown>,
  o: { readonly dropUnknown: boolean; readonly values: EveValues },
): ImportItem | Refused {
  const { fromEve, UnimportableValue } = o.values;
  let doc: Record<string, unknown>;
  try {
    doc = fromEve(raw) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof UnimportableValue)) throw error;
    return { id: String(fromEve(raw._id)), refused: error.message };
  }
  const id = String(doc._id);
  if (doc._id === undefined || doc._id === null || id === '')
    return { id: '(none)', refused: '_id: missing' };
  const flag = res.softDelete?.field;
  const hidden = (flag !== undefined && doc[flag] === true) || doc._deleted === true;
  const data: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (EVE_META.has(key) || key === flag) continue;
    if (HISTORY.has(key)) {
      if (key === '_id' || value instanceof Date) data[key] = value;
      continue;
    }
    if (o.dropUnknown && !Object.hasOwn(res.def.fields, key)) {
      dropped.push(key);
      continue;
    }
    data[key] = value;
  }
  const files: [string, string][] = [];
  for (const field of res.mediaFields) {
    const value = data[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || !/^[0-9a-f]{24}$/i.test(value))
      return { id, refused: `${field}: not the id of a GridFS file` };
    files.push([field, value]);
  }
  return { id, data, files, hidden, dropped };
}
