/**
 * Media files as chunk rows, GridFS-style: the upload is read chunk by chunk and written in
 * batches (each a write of the group commit, group-commit.ts), so a 50 MB file never sits in
 * memory; the `media` row that makes it visible is written last, in the same write as the final
 * chunks.
 */
import { Readable } from 'node:stream';
import type { MediaInfo, MediaStore } from '../port';
import type { SqliteDb } from './db';
import { newObjectId } from '../../ids';
import type { GroupCommit } from './group-commit';

/** GridFS's default chunk size (255 KiB). */
export const CHUNK_SIZE = 255 * 1024;
/** Chunks per intermediate write: bounds memory (~4 MiB) and the number of fsyncs. */
const CHUNKS_PER_BATCH = 16;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS media (id TEXT PRIMARY KEY, filename TEXT NOT NULL, content_type TEXT NOT NULL,
  length INTEGER NOT NULL, uploaded_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS media_chunks (media_id TEXT NOT NULL, n INTEGER NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY (media_id, n));`;

/** The media store over one database. */
export function sqliteMedia(db: SqliteDb, group: GroupCommit): MediaStore {
  db.exec(SCHEMA);
  return {
    async put(content, meta) {
      db.assertOpen();
      const id = newObjectId();
      try {
        return await writeChunks(new ChunkWriter(db, group, id), content, meta);
      } catch (error) {
        // Chunks of a failed upload have no media row; drop them (best effort: the store may be closed or failing).
        await group
          .run(() => db.prepare('DELETE FROM media_chunks WHERE media_id = ?').run(id))
          .catch(() => undefined);
        throw error;
      }
    },
    async open(id) {
      const info = readInfo(db, id);
      return info === null ? null : { info, stream: Readable.from(readChunks(db, info)) };
    },
    async delete(id) {
      return group.run(() => {
        db.prepare('DELETE FROM media_chunks WHERE media_id = ?').run(id);
        return db.prepare('DELETE FROM media WHERE id = ?').run(id).changes > 0;
      });
    },
  };
}

async function writeChunks(
  writer: ChunkWriter,
  content: Readable,
  meta: { filename: string; contentType: string },
): Promise<MediaInfo> {
  for await (const piece of content) {
    await writer.push(typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece as Uint8Array));
  }
  const { id, db } = writer;
  const info: MediaInfo = {
    id,
    filename: meta.filename,
    contentType: meta.contentType,
    length: writer.length,
    uploadedAt: new Date(),
  };
  await writer.finish(() =>
    db
      .prepare('INSERT INTO media (id, filename, content_type, length, uploaded_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, info.filename, info.contentType, info.length, info.uploadedAt.toISOString()),
  );
  return info;
}

/** Cuts incoming pieces into fixed-size chunks and writes them a batch at a time. */
class ChunkWriter {
  length = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private batch: Buffer[] = [];
  private written = 0;

  constructor(
    readonly db: SqliteDb,
    private readonly group: GroupCommit,
    readonly id: string,
  ) {}

  /** Takes a piece of the upload; resolves once the chunks it completed are written. */
  async push(piece: Buffer): Promise<void> {
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    this.length += piece.length;
    if (this.pendingBytes < CHUNK_SIZE) return;
    // One concat per piece (not per chunk): a large piece is sliced without quadratic copying.
    const joined = Buffer.concat(this.pending);
    let offset = 0;
    for (; joined.length - offset >= CHUNK_SIZE; offset += CHUNK_SIZE) {
      this.batch.push(joined.subarray(offset, offset + CHUNK_SIZE));
      if (this.batch.length >= CHUNKS_PER_BATCH) await this.writeBatch();
    }
    this.pending = [joined.subarray(offset)];
    this.pendingBytes = joined.length - offset;
  }

  /** Writes the tail and runs `last` (the media row) in the same write. */
  async finish(last: () => void): Promise<void> {
    if (this.pendingBytes > 0) this.batch.push(Buffer.concat(this.pending));
    this.pending = [];
    await this.writeBatch(last);
  }

  /** Writes the chunks taken so far (and `last`) as one write, numbered on from the ones before. */
  private async writeBatch(last?: () => void): Promise<void> {
    const chunks = this.batch;
    const first = this.written;
    this.batch = [];
    this.written += chunks.length;
    await this.group.run(() => {
      const insert = this.db.prepare('INSERT INTO media_chunks (media_id, n, data) VALUES (?, ?, ?)');
      chunks.forEach((data, i) => insert.run(this.id, first + i, data));
      last?.();
    });
  }
}

function readInfo(db: SqliteDb, id: string): MediaInfo | null {
  const row: unknown = db
    .prepare('SELECT id, filename, content_type, length, uploaded_at FROM media WHERE id = ?')
    .get(id);
  if (typeof row !== 'object' || row === null) return null;
  const r = row as Record<string, unknown>;
  return {
    id: String(r.id),
    filename: String(r.filename),
    contentType: String(r.content_type),
    length: Number(r.length),
    uploadedAt: new Date(String(r.uploaded_at)),
  };
}

/** One chunk per read: the whole file is never loaded. */
function* readChunks(db: SqliteDb, info: MediaInfo): Generator<Buffer> {
  const chunks = Math.ceil(info.length / CHUNK_SIZE);
  for (let n = 0; n < chunks; n += 1) {
    const row: unknown = db
      .prepare('SELECT data FROM media_chunks WHERE media_id = ? AND n = ?')
      .get(info.id, n);
    const data = typeof row === 'object' && row !== null && 'data' in row ? row.data : undefined;
    if (!Buffer.isBuffer(data)) throw new Error(`media ${info.id}: chunk ${n} is missing`);
    yield data;
  }
}
