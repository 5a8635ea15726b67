/**
 * The database of the original (Eve) application, read for `fleet import`: its collections'
 * documents as Eve stored them (ObjectId ids and references, dates, Eve's `_created`, `_updated`,
 * `_etag`) and its GridFS files (bucket `fs`: `fs.files` with `filename` and `contentType`, the
 * bytes in `fs.chunks`), from one of three places:
 *
 * - a `mongodump` directory (`<collection>.bson` files: `mongodump --db <db> --out dump`, then
 *   `dump/<db>`), read without a server;
 * - a `mongoexport` directory (`<collection>.json`, Extended JSON: `mongoexport --collection <c>
 *   --out <c>.json` for each collection, `fs.files` and `fs.chunks` included), read without a server;
 * - the live database (`mongodb://...`), read with the driver (any version it speaks).
 *
 * It only reads: nothing in the source is changed.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import mongoose from 'mongoose';
import { bsonRecords, jsonRecords, recordAt, type Located, type RawDoc } from './records';

/** A file of the original's GridFS: what `runtime.media.put` needs. */
export interface EveFile {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Readable;
}

/** The original application's database, read only. */
export interface EveSource {
  /** Where it is read from, for the report. */
  readonly describe: string;
  /** The collections it has (GridFS's `fs.files` and `fs.chunks` included). */
  collections(): Promise<string[]>;
  /** A collection's documents, in the order stored. */
  documents(collection: string): AsyncIterable<RawDoc>;
  /** A GridFS file by its id (24 hex), or null when there is none. */
  file(id: string): Promise<EveFile | null>;
  close(): Promise<void>;
}

const GRIDFS_FILES = 'fs.files';
const GRIDFS_CHUNKS = 'fs.chunks';

/** The hex of an ObjectId (or of a string id). */
function idHex(value: unknown): string {
  if (value instanceof mongoose.mongo.ObjectId) return value.toHexString();
  return String(value);
}

/** The bytes of a chunk's `data` (a BSON Binary). */
function chunkBytes(data: unknown): Buffer {
  if (data instanceof mongoose.mongo.Binary) return Buffer.from(data.buffer.subarray(0, data.position));
  if (data instanceof Uint8Array) return Buffer.from(data);
  throw new Error('a GridFS chunk without binary data');
}

/** A GridFS file document's type: Eve (PyMongo's legacy GridFS) keeps `contentType`; newer drivers `metadata.contentType`. */
function contentTypeOf(file: RawDoc): string {
  const metadata = file.metadata;
  const nested =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as Record<string, unknown>).contentType
      : undefined;
  const type = file.contentType ?? nested;
  return typeof type === 'string' && type !== '' ? type : 'application/octet-stream';
}

/** A chunk of a file on disk: its number, and where its document is (or its bytes, from a JSON array). */
type ChunkRef = { readonly n: number; readonly at?: Located['at']; readonly bytes?: Buffer };

/** A `mongodump` or `mongoexport` directory. */
class DirectorySource implements EveSource {
  private files: Promise<Map<string, RawDoc>> | undefined;
  private chunks: Promise<Map<string, ChunkRef[]>> | undefined;

  constructor(
    readonly describe: string,
    private readonly dir: string,
    private readonly names: ReadonlyMap<string, string>,
    private readonly json: boolean,
  ) {}

  async collections(): Promise<string[]> {
    return [...this.names.keys()];
  }

  async *documents(collection: string): AsyncIterable<RawDoc> {
    for await (const { doc } of this.records(collection)) yield doc;
  }

  async file(id: string): Promise<EveFile | null> {
    const file = (await (this.files ??= this.fileDocs())).get(id);
    if (file === undefined) return null;
    const parts = [...((await (this.chunks ??= this.chunkRefs())).get(id) ?? [])].sort((a, b) => a.n - b.n);
    const path = this.pathOf(GRIDFS_CHUNKS);
    const json = this.json;
    async function* bytes(): AsyncGenerator<Buffer> {
      for (const part of parts)
        yield (
          part.bytes ?? (part.at ? chunkBytes((await recordAt(path, part.at, json)).data) : Buffer.alloc(0))
        );
    }
    return {
      filename: typeof file.filename === 'string' ? file.filename : id,
      contentType: contentTypeOf(file),
      content: Readable.from(bytes()),
    };
  }

  async close(): Promise<void> {
    this.files = undefined;
    this.chunks = undefined;
  }

  private pathOf(collection: string): string {
    const name = this.names.get(collection);
    if (name === undefined) throw new Error(`${this.describe} has no ${collection}`);
    return join(this.dir, name);
  }

  private records(collection: string): AsyncIterable<Located> {
    const path = this.pathOf(collection);
    return this.json ? jsonRecords(path) : bsonRecords(path);
  }

  private async fileDocs(): Promise<Map<string, RawDoc>> {
    const out = new Map<string, RawDoc>();
    if (!this.names.has(GRIDFS_FILES)) return out;
    for await (const { doc } of this.records(GRIDFS_FILES)) out.set(idHex(doc._id), doc);
    return out;
  }

  /** One pass over the chunks, keeping where each lies (not its bytes, unless from a JSON array). */
  private async chunkRefs(): Promise<Map<string, ChunkRef[]>> {
    const out = new Map<string, ChunkRef[]>();
    if (!this.names.has(GRIDFS_CHUNKS)) return out;
    for await (const { doc, at } of this.records(GRIDFS_CHUNKS)) {
      const ref: ChunkRef = at ? { n: Number(doc.n), at } : { n: Number(doc.n), bytes: chunkBytes(doc.data) };
      const id = idHex(doc.files_id);
      out.set(id, [...(out.get(id) ?? []), ref]);
    }
    return out;
  }
}

/** The live database of the original application. */
class LiveSource implements EveSource {
  readonly describe: string;
  private readonly client: mongoose.mongo.MongoClient;

  constructor(url: string) {
    this.client = new mongoose.mongo.MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
    this.describe = url.replace(/\/\/[^@/]*@/, '//***@');
  }

  async collections(): Promise<string[]> {
    const list = await this.client.db().listCollections({}, { nameOnly: true }).toArray();
    return list.map((c) => c.name).filter((name) => !name.startsWith('system.'));
  }

  async *documents(collection: string): AsyncIterable<RawDoc> {
    yield* this.client.db().collection<RawDoc>(collection).find({}, { batchSize: 1000 });
  }

  async file(id: string): Promise<EveFile | null> {
    if (!/^[0-9a-f]{24}$/i.test(id)) return null;
    const objectId = new mongoose.mongo.ObjectId(id);
    const bucket = new mongoose.mongo.GridFSBucket(this.client.db(), { bucketName: 'fs' });
    const file = await bucket.find({ _id: objectId }, { limit: 1 }).next();
    if (file === null) return null;
    return {
      filename: file.filename,
      contentType: contentTypeOf(file as unknown as RawDoc),
      content: bucket.openDownloadStream(objectId),
    };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The collections of a directory: `.bson` files (a dump), else `.json` ones (an export, `.metadata.json` aside). */
async function directoryNames(dir: string): Promise<{ names: Map<string, string>; json: boolean }> {
  const entries = await readdir(dir);
  const bson = entries.filter((name) => name.endsWith('.bson'));
  if (bson.length > 0)
    return { names: new Map(bson.map((f) => [f.slice(0, -'.bson'.length), f])), json: false };
  const json = entries.filter((name) => name.endsWith('.json') && !name.endsWith('.metadata.json'));
  return { names: new Map(json.map((f) => [f.slice(0, -'.json'.length), f])), json: true };
}

/** Opens the original's database: a `mongodb://` URL, or a `mongodump` / `mongoexport` directory. */
export async function openEveSource(from: string): Promise<EveSource> {
  if (/^mongodb(\+srv)?:\/\//.test(from)) return new LiveSource(from);
  const info = await stat(from).catch(() => undefined);
  if (!info?.isDirectory())
    throw new Error(`--from: "${from}" is neither a mongodb:// URL nor a directory of a dump or an export`);
  const { names, json } = await directoryNames(from);
  if (names.size === 0)
    throw new Error(
      `--from: "${from}" has no <collection>.bson (mongodump) or <collection>.json (mongoexport) files`,
    );
  return new DirectorySource(`${json ? 'mongoexport' : 'mongodump'} files in ${from}`, from, names, json);
}
