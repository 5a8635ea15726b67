/**
 * `Store.write` on SQLite: every write of the batch in the caller's transaction (a savepoint of
 * a group commit, group-commit.ts), so an item's new version and the relation effects of a delete
 * (ids pulled from referencing items) land together or not at all.
 */
import { PreconditionFailed } from '../../errors';
import type { BatchWrite } from '../port';
import type { CollectionInfo, Collections } from './collections';
import type { SqliteDb } from './db';
import { encodeDoc } from './json';
import { type EncodedDoc, insertText, translateConstraint } from './writes';

/** The condition of a versioned write: the id, and the etag when one is expected. */
function versionClause(ifEtag: string | undefined): string {
  return ifEtag === undefined ? 'id = ?' : `id = ? AND json_extract(doc, '$._etag') = ?`;
}

function versionParams(id: string, ifEtag: string | undefined): string[] {
  return ifEtag === undefined ? [id] : [id, ifEtag];
}

function lost(collection: string, id: string): PreconditionFailed {
  return new PreconditionFailed(
    `${collection} "${id}" was changed or removed by another request; read it again`,
  );
}

/** A batch write with its collection resolved and its document encoded when the write was asked for. */
export type EncodedWrite =
  | { readonly op: 'insert'; readonly info: CollectionInfo; readonly doc: EncodedDoc }
  | {
      readonly op: 'replace';
      readonly info: CollectionInfo;
      readonly doc: EncodedDoc;
      readonly ifEtag: string | undefined;
    }
  | {
      readonly op: 'delete';
      readonly info: CollectionInfo;
      readonly id: string;
      readonly ifEtag: string | undefined;
    };

/** Resolves the collections and encodes the documents of a batch. */
export function encodeBatch(collections: Collections, batch: readonly BatchWrite[]): EncodedWrite[] {
  return batch.map((w) => {
    const info = collections.get(w.collection);
    if (w.op === 'delete') return { op: 'delete', info, id: w.id, ifEtag: w.ifEtag };
    const doc = { id: w.doc._id, text: encodeDoc(w.doc) };
    return w.op === 'insert' ? { op: 'insert', info, doc } : { op: 'replace', info, doc, ifEtag: w.ifEtag };
  });
}

/** Applies the batch inside the caller's transaction; the first failure throws (the caller undoes the rest). */
export function writeBatch(db: SqliteDb, batch: readonly EncodedWrite[]): void {
  for (const w of batch) {
    const { info } = w;
    if (w.op === 'insert') {
      insertText(db, info, w.doc);
      continue;
    }
    if (w.op === 'replace') {
      const sql = `UPDATE ${info.table} SET doc = ? WHERE ${versionClause(w.ifEtag)}`;
      const result = translateConstraint(info, () =>
        db.prepare(sql).run(w.doc.text, ...versionParams(w.doc.id, w.ifEtag)),
      );
      if (result.changes === 0) throw lost(info.name, w.doc.id);
      continue;
    }
    const result = db
      .prepare(`DELETE FROM ${info.table} WHERE ${versionClause(w.ifEtag)}`)
      .run(...versionParams(w.id, w.ifEtag));
    if (result.changes === 0) throw lost(info.name, w.id);
  }
}
