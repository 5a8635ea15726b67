/**
 * `Store.write` on SQLite: every write of the batch in one IMMEDIATE transaction, so an item's new
 * version and the relation effects of a delete (ids pulled from referencing items) land together
 * or not at all.
 */
import { PreconditionFailed } from '../../errors';
import type { BatchWrite } from '../port';
import type { Collections } from './collections';
import type { SqliteDb } from './db';
import { encodeDoc } from './json';
import { insertOne, translateConstraint } from './writes';

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

/** Applies the batch; any failure rolls every write of it back. */
export function writeBatch(db: SqliteDb, collections: Collections, batch: readonly BatchWrite[]): void {
  if (batch.length === 0) return;
  const infos = batch.map((w) => collections.get(w.collection));
  db.immediate(() => {
    batch.forEach((w, i) => {
      const info = infos[i];
      if (info === undefined) return;
      if (w.op === 'insert') {
        insertOne(db, info, w.doc);
        return;
      }
      if (w.op === 'replace') {
        const sql = `UPDATE ${info.table} SET doc = ? WHERE ${versionClause(w.ifEtag)}`;
        const result = translateConstraint(info, () =>
          db.prepare(sql).run(encodeDoc(w.doc), ...versionParams(w.doc._id, w.ifEtag)),
        );
        if (result.changes === 0) throw lost(w.collection, w.doc._id);
        return;
      }
      const result = db
        .prepare(`DELETE FROM ${info.table} WHERE ${versionClause(w.ifEtag)}`)
        .run(...versionParams(w.id, w.ifEtag));
      if (result.changes === 0) throw lost(w.collection, w.id);
    });
  });
}
