/**
 * Media in GridFS (https://www.mongodb.com/docs/manual/core/gridfs/): bytes streamed in 255 KiB
 * chunks both ways, never buffered whole. Files live in the `media` bucket (`media.files`,
 * `media.chunks`); a file's id is the 24-hex string of its ObjectId; the content type and the
 * original file name are kept in the file document. A delete removes the file document and its
 * chunks in one transaction where the server has them; on a standalone server the file document
 * goes first, so a failure in between leaves unreachable chunks, never a file with missing bytes.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mongoose from 'mongoose';
import type { MediaInfo, MediaStore } from '../port';
import type { DbSource } from './connection';
import { inTransaction } from './atomic';
import { translated, translateMongoError } from './errors';

/** The GridFS bucket name: collections `media.files` and `media.chunks`. */
export const MEDIA_BUCKET = 'media';

const { GridFSBucket, ObjectId } = mongoose.mongo;
type GridFSFile = mongoose.mongo.GridFSFile;

/** The ObjectId of a media id, or `null` when the id cannot be one (so it is unknown). */
export function mediaObjectId(id: string): mongoose.mongo.ObjectId | null {
  return /^[0-9a-f]{24}$/i.test(id) ? new ObjectId(id) : null;
}

/** The port's view of a GridFS file document. */
export function mediaInfoOf(file: GridFSFile): MediaInfo {
  const contentType: unknown = file.metadata?.contentType;
  return {
    id: file._id.toHexString(),
    filename: file.filename,
    contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream',
    length: file.length,
    uploadedAt: file.uploadDate,
  };
}

/** Deletes a file document and its chunks (chunks too when an upload failed before its file doc). */
async function removeFile(
  db: mongoose.mongo.Db,
  id: mongoose.mongo.ObjectId,
  session?: mongoose.mongo.ClientSession,
): Promise<boolean> {
  const options = session ? { session } : {};
  const { deletedCount } = await db.collection(`${MEDIA_BUCKET}.files`).deleteOne({ _id: id }, options);
  await db.collection(`${MEDIA_BUCKET}.chunks`).deleteMany({ files_id: id }, options);
  return deletedCount > 0;
}

/** The media store over the connector's database. */
export class GridFsMedia implements MediaStore {
  /** One bucket per database handle: a bucket checks its indexes once, on its first upload. */
  private cached: { db: mongoose.mongo.Db; bucket: mongoose.mongo.GridFSBucket } | undefined;

  constructor(private readonly connector: DbSource) {}

  /** Streams the bytes into GridFS; resolves once the file document is written. */
  async put(content: Readable, meta: { filename: string; contentType: string }): Promise<MediaInfo> {
    const { db, bucket } = await this.bucket();
    const upload = bucket.openUploadStream(meta.filename, { metadata: { contentType: meta.contentType } });
    try {
      await pipeline(content, upload);
    } catch (error) {
      // A broken source (a client that hung up, a size limit) must not leave orphan chunks.
      await removeFile(db, upload.id).catch(() => undefined);
      throw translateMongoError(error);
    }
    if (upload.gridFSFile === null) throw new Error('GridFS upload finished without a file document');
    return mediaInfoOf(upload.gridFSFile);
  }

  /** The file's metadata and a stream of its bytes; `null` when the id is unknown. */
  async open(id: string): Promise<{ info: MediaInfo; stream: Readable } | null> {
    const objectId = mediaObjectId(id);
    if (objectId === null) return null;
    const { bucket } = await this.bucket();
    const file = await translated(() => bucket.find({ _id: objectId }, { limit: 1 }).next());
    if (file === null) return null;
    return { info: mediaInfoOf(file), stream: bucket.openDownloadStream(objectId) };
  }

  /** Deletes the file and its chunks; `true` when it existed. */
  async delete(id: string): Promise<boolean> {
    const objectId = mediaObjectId(id);
    if (objectId === null) return false;
    const { db } = await this.bucket();
    if ((await this.connector.server()).transactions)
      return inTransaction(db.client, (session) => removeFile(db, objectId, session));
    return translated(() => removeFile(db, objectId));
  }

  private async bucket(): Promise<{ db: mongoose.mongo.Db; bucket: mongoose.mongo.GridFSBucket }> {
    const db = await this.connector.db();
    if (this.cached?.db !== db)
      this.cached = { db, bucket: new GridFSBucket(db, { bucketName: MEDIA_BUCKET }) };
    return this.cached;
  }
}
