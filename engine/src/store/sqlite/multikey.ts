/**
 * Element indexes of lists (MongoDB's multikey indexes): `{groups: "g1"}` matches a document whose
 * list holds "g1", which no expression index on the document can answer. Each indexed list gets a
 * side table of (element, id) pairs, kept by triggers on the collection's table, so every writer of
 * the file (this process, another instance, an older version of the service, the CLI) keeps it in
 * the same transaction as the document, and a query reads it as any index:
 * `id IN (SELECT id FROM mk_hosts_groups WHERE value = ?)`.
 */
import { BadRequest } from '../../errors';
import type { ScalarType } from '../port';
import type { SqliteDb } from './db';
import { type Multikey, SAFE_PATH } from './translate';

/** The JSON types (`json_each`'s `type`) of the elements a list of `type` indexes. */
const JSON_TYPES: Readonly<Record<ScalarType, string>> = {
  string: "'text'",
  datetime: "'text'",
  integer: "'integer', 'real'",
  number: "'integer', 'real'",
  boolean: "'true', 'false'",
};

/**
 * Creates the side table and its triggers (idempotent), filling the table from the documents
 * already stored when it is new. One transaction: two processes declaring it at once fill it once.
 */
export function ensureMultikey(
  db: SqliteDb,
  o: { collection: string; table: string; path: string; type: ScalarType },
): Multikey {
  if (!SAFE_PATH.test(o.path)) throw new BadRequest(`invalid index path: ${JSON.stringify(o.path)}`);
  const side = `mk_${o.collection}_${o.path.replace(/\./g, '_')}`;
  const each = (doc: string) => `json_each(${doc}.doc, '$.${o.path}') WHERE type IN (${JSON_TYPES[o.type]})`;
  const elements = (doc: string) => `SELECT value, ${doc}.id FROM ${each(doc)}`;
  db.immediate(() => {
    const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get('table', side);
    db.exec(
      [
        // No type on `value`: elements keep the type json_each gives them (TEXT, INTEGER, REAL).
        `CREATE TABLE IF NOT EXISTS ${side} (value NOT NULL, id TEXT NOT NULL, PRIMARY KEY (value, id)) WITHOUT ROWID`,
        `CREATE INDEX IF NOT EXISTS ${side}_id ON ${side}(id)`,
        `CREATE TRIGGER IF NOT EXISTS ${side}_insert AFTER INSERT ON ${o.table} BEGIN INSERT OR IGNORE INTO ${side} (value, id) ${elements('new')}; END`,
        // Only when the list changed: most updates of a document leave its lists alone.
        `CREATE TRIGGER IF NOT EXISTS ${side}_update AFTER UPDATE ON ${o.table} WHEN json_extract(old.doc, '$.${o.path}') IS NOT json_extract(new.doc, '$.${o.path}') OR old.id IS NOT new.id BEGIN DELETE FROM ${side} WHERE id = old.id; INSERT OR IGNORE INTO ${side} (value, id) ${elements('new')}; END`,
        `CREATE TRIGGER IF NOT EXISTS ${side}_delete AFTER DELETE ON ${o.table} BEGIN DELETE FROM ${side} WHERE id = old.id; END`,
      ].join(';\n'),
    );
    if (exists === undefined)
      db.exec(`INSERT OR IGNORE INTO ${side} (value, id) SELECT value, c.id FROM ${o.table} c, ${each('c')}`);
  });
  return { table: side, type: o.type };
}
