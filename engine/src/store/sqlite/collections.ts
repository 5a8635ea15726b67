/**
 * Collection tables and their expression indexes, and what the adapter remembers per collection:
 * the pushable fields, the datetime paths to revive, and which field each unique index guards.
 */
import { BadRequest } from '../../errors';
import type { CollectionSpec, IndexSpec, ScalarType } from '../port';
import type { SqliteDb } from './db';
import { ensureMultikey } from './multikey';
import { fieldExpr, type Multikey, SAFE_PATH } from './translate';

/** What the adapter knows about one collection. */
export interface CollectionInfo {
  readonly name: string;
  /** `c_<name>`: safe to splice into SQL (the name is validated). */
  readonly table: string;
  /** `_id` plus the declared scalar paths: what the filter translator may push down. */
  readonly fields: ReadonlyMap<string, ScalarType>;
  /** The pushable paths never stored as null: `$exists` on them is an index test (translate.ts). */
  readonly notNull: ReadonlySet<string>;
  readonly datetimePaths: readonly string[];
  /** Lists of scalars with an element index (multikey.ts): path -> its side table and element type. */
  readonly lists: ReadonlyMap<string, Multikey>;
  /** Unique index name -> the field(s) it guards, to name them in `Conflict`. */
  readonly uniqueIndexes: ReadonlyMap<string, string>;
  /** `_id` and every field of a declared index, in declaration order: named when a read is refused. */
  readonly indexed: readonly string[];
}

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;

/** The registry of declared (or implicitly created) collections of one database. */
export class Collections {
  private readonly infos = new Map<string, CollectionInfo>();

  constructor(private readonly db: SqliteDb) {}

  /** Creates the table and indexes (idempotent) and remembers the spec. */
  ensure(spec: CollectionSpec): CollectionInfo {
    const table = tableName(spec.name);
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    const uniqueIndexes = new Map<string, string>();
    const multikey = new Map<string, Multikey>();
    const arrayPaths = spec.arrayPaths ?? {};
    for (const index of spec.indexes) {
      const lists = index.fields.filter(([path]) => Object.hasOwn(arrayPaths, path));
      // An index with a list in it is that list's element index; its other keys are tested per row.
      for (const [path] of lists)
        multikey.set(
          path,
          ensureMultikey(this.db, { collection: spec.name, table, path, type: arrayPaths[path] ?? 'string' }),
        );
      if (lists.length > 0) continue;
      const name = indexName(spec.name, index);
      this.db.exec(indexDdl(name, table, index));
      if (index.unique === true) uniqueIndexes.set(name, index.fields.map(([f]) => f).join(','));
    }
    const info: CollectionInfo = {
      name: spec.name,
      table,
      fields: pushableFields(spec.scalarPaths),
      notNull: new Set(spec.notNullPaths ?? []),
      lists: multikey,
      datetimePaths: [...spec.datetimePaths],
      uniqueIndexes,
      indexed: [...new Set(['_id', ...spec.indexes.flatMap((index) => index.fields.map(([f]) => f))])],
    };
    this.infos.set(spec.name, info);
    return info;
  }

  /** The collection's info; an undeclared one is created on the fly (no push-down, no revival). */
  get(name: string): CollectionInfo {
    this.db.assertOpen();
    return this.infos.get(name) ?? this.ensure({ name, scalarPaths: {}, datetimePaths: [], indexes: [] });
  }
}

function tableName(name: string): string {
  if (!COLLECTION_NAME.test(name)) throw new BadRequest(`invalid collection name: ${JSON.stringify(name)}`);
  return `c_${name}`;
}

/** `ix_<collection>_<fields>`, a `_desc` suffix on descending keys so both directions can coexist. */
function indexName(collection: string, index: IndexSpec): string {
  const parts = index.fields.map(([path, dir]) => `${path.replace(/\./g, '_')}${dir === -1 ? '_desc' : ''}`);
  return `ix_${collection}_${parts.join('_')}`;
}

/**
 * Non-unique indexes end with `id`: the tie-breaker every ORDER BY appends, so a filtered, sorted
 * page is read straight from the index with no sort step.
 */
function indexDdl(name: string, table: string, index: IndexSpec): string {
  if (index.fields.length === 0) throw new BadRequest(`index ${name} has no fields`);
  const keys = index.fields.map(([path, dir]) => {
    if (path !== '_id' && !SAFE_PATH.test(path))
      throw new BadRequest(`invalid index path: ${JSON.stringify(path)}`);
    return `${fieldExpr(path)}${dir === -1 ? ' DESC' : ''}`;
  });
  const unique = index.unique === true;
  if (!unique && !index.fields.some(([path]) => path === '_id')) keys.push('id');
  return `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name} ON ${table}(${keys.join(', ')})`;
}

/** Paths that could not be spliced into a JSON path literal safely are simply not pushed down. */
function pushableFields(scalarPaths: Readonly<Record<string, ScalarType>>): Map<string, ScalarType> {
  const fields = new Map<string, ScalarType>([['_id', 'string']]);
  for (const [path, type] of Object.entries(scalarPaths)) {
    if (path !== '_id' && SAFE_PATH.test(path)) fields.set(path, type);
  }
  return fields;
}
