/**
 * Writes: inserts, updates, find-and-modify and deletes, with SQLite's constraint errors translated
 * to `Conflict` naming the field. Each runs inside the caller's transaction, under the write lock
 * (group-commit.ts: its own savepoint of a group's `BEGIN IMMEDIATE`), so its reads and writes
 * never interleave with another writer's.
 */
import { BadRequest, Conflict } from '../../errors';
import type { Doc, Filter, FindOneAndUpdateOptions, UpdateOptions, UpdateResult } from '../port';
import type { CollectionInfo } from './collections';
import type { SqliteDb } from './db';
import { decodeDoc, encodeDoc } from './json';
import { findDocs } from './query';
import { translateFilter } from './translate';
import { applyUpdate, type ParsedUpdate, upsertDoc } from './update-doc';

/** A document as it will be stored: encoded when the write is asked for, as the caller's object is then. */
export interface EncodedDoc {
  readonly id: string;
  readonly text: string;
}

/** Encodes documents for {@link insertDocs}, refusing an `_id` that is not a string. */
export function encodeDocs(docs: readonly Doc[]): EncodedDoc[] {
  return docs.map((doc) => {
    if (typeof doc._id !== 'string') throw new BadRequest('_id must be a string');
    return { id: doc._id, text: encodeDoc(doc) };
  });
}

/** Inserts every document (all or none: the caller's savepoint undoes the first ones when one fails). */
export function insertDocs(db: SqliteDb, info: CollectionInfo, docs: readonly EncodedDoc[]): void {
  for (const doc of docs) insertText(db, info, doc);
}

/** Updates the first match (or every one with `multi`), or upserts. */
export function updateDocs(
  db: SqliteDb,
  info: CollectionInfo,
  filter: Filter,
  parsed: ParsedUpdate,
  options: UpdateOptions = {},
): UpdateResult {
  const targets = db.budget.exempt(() =>
    findDocs(db, info, filter, { limit: options.multi === true ? 0 : 1 }),
  );
  if (targets.length === 0) {
    if (options.upsert !== true) return { matched: 0, modified: 0 };
    const doc = upsertDoc(filter, parsed);
    insertOne(db, info, doc);
    return { matched: 0, modified: 0, upsertedId: doc._id };
  }
  let modified = 0;
  for (const doc of targets) {
    const written = rewrite(db, info, doc, parsed);
    if (written.before !== written.after) modified += 1;
  }
  return { matched: targets.length, modified };
}

/**
 * Updates the first match in `sort` order and returns it. The write lock is held before the read,
 * so two claimers (in this process or another) never get one doc.
 */
export function findOneAndUpdateDoc(
  db: SqliteDb,
  info: CollectionInfo,
  filter: Filter,
  parsed: ParsedUpdate,
  options: FindOneAndUpdateOptions = {},
): Doc | null {
  const wantBefore = options.returnDocument === 'before';
  const [doc] = db.budget.exempt(() =>
    findDocs(db, info, filter, options.sort === undefined ? { limit: 1 } : { sort: options.sort, limit: 1 }),
  );
  if (doc === undefined) {
    if (options.upsert !== true) return null;
    const created = upsertDoc(filter, parsed);
    const text = insertOne(db, info, created);
    return wantBefore ? null : decodeDoc(text, info.datetimePaths);
  }
  const written = rewrite(db, info, doc, parsed);
  // Decoded from the stored text, so the caller sees exactly what a later find would return.
  return decodeDoc(wantBefore ? written.before : written.after, info.datetimePaths);
}

/** Deletes every match: one DELETE when the filter is wholly pushed down. */
export function deleteDocs(db: SqliteDb, info: CollectionInfo, filter: Filter): number {
  const where = translateFilter(filter, info.fields);
  if (where.complete) {
    const clause = where.sql === undefined ? '' : ` WHERE ${where.sql}`;
    return db.prepare(`DELETE FROM ${info.table}${clause}`).run(...where.params).changes;
  }
  const statement = db.prepare(`DELETE FROM ${info.table} WHERE id = ?`);
  let deleted = 0;
  for (const doc of findDocs(db, info, filter)) deleted += statement.run(doc._id).changes;
  return deleted;
}

/** Inserts one document inside the caller's transaction; returns the stored text. */
export function insertOne(db: SqliteDb, info: CollectionInfo, doc: Doc): string {
  const text = encodeDoc(doc);
  insertText(db, info, { id: doc._id, text });
  return text;
}

/** Inserts one encoded document inside the caller's transaction. */
export function insertText(db: SqliteDb, info: CollectionInfo, doc: EncodedDoc): void {
  translateConstraint(info, () =>
    db.prepare(`INSERT INTO ${info.table} (id, doc) VALUES (?, ?)`).run(doc.id, doc.text),
  );
}

/** Applies the update to one document and writes it back when its JSON changed. */
function rewrite(
  db: SqliteDb,
  info: CollectionInfo,
  doc: Doc,
  update: ParsedUpdate,
): { before: string; after: string } {
  const before = encodeDoc(doc);
  const after = encodeDoc(applyUpdate(doc, update));
  if (after !== before) {
    translateConstraint(info, () =>
      db.prepare(`UPDATE ${info.table} SET doc = ? WHERE id = ?`).run(after, doc._id),
    );
  }
  return { before, after };
}

/** Runs a write, turning a primary key or unique index violation into `Conflict` with the field. */
export function translateConstraint<T>(info: CollectionInfo, write: () => T): T {
  try {
    return write();
  } catch (error) {
    // By code, not `instanceof SqliteError`: the native addon keeps the error class of the first
    // better-sqlite3 copy loaded in the process (Jest loads one per test file).
    const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as {
      code?: unknown;
      message?: unknown;
    };
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new Conflict(`duplicate value for '_id'`, '_id');
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
    // better-sqlite3 reports expression indexes as "UNIQUE constraint failed: index 'ix_...'".
    const index = /index '([A-Za-z0-9_]+)'/.exec(String(message))?.[1];
    const field = (index === undefined ? undefined : info.uniqueIndexes.get(index)) ?? '_id';
    throw new Conflict(`duplicate value for '${field}'`, field);
  }
}
