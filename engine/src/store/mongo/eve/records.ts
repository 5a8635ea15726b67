/**
 * The documents of one collection as the MongoDB tools write them to disk, read one at a time:
 * `mongodump`'s `<collection>.bson` (BSON documents back to back, each led by its int32 length)
 * and `mongoexport`'s `<collection>.json` (Extended JSON v2, canonical or relaxed, one document a
 * line, or one array with `--jsonArray`). Each document comes with where it lies in the file, so a
 * large one (a GridFS chunk) can be read again later instead of kept in memory.
 */
import { open, readFile } from 'node:fs/promises';
import mongoose from 'mongoose';

const { BSON } = mongoose.mongo;

/** A decoded document: BSON values kept as the driver decodes them (ObjectId, Date, Binary...). */
export type RawDoc = Record<string, unknown>;

/** Where a document lies in its file: `undefined` for a document of a JSON array (read whole). */
export interface Located {
  readonly doc: RawDoc;
  readonly at?: { readonly offset: number; readonly length: number };
}

/** Bytes read from a file at a time. */
const BLOCK = 1 << 20;

/** The documents of a BSON file, in order. */
export async function* bsonRecords(path: string): AsyncGenerator<Located> {
  const file = await open(path, 'r');
  try {
    let pending = Buffer.alloc(0);
    let base = 0;
    for (let position = 0; ;) {
      const block = Buffer.alloc(BLOCK);
      const { bytesRead } = await file.read(block, 0, BLOCK, position);
      position += bytesRead;
      pending = Buffer.concat([pending, block.subarray(0, bytesRead)]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        if (length < 5)
          throw new Error(`${path}: not a BSON dump (a document of ${length} bytes at ${base})`);
        yield { doc: BSON.deserialize(pending.subarray(0, length)), at: { offset: base, length } };
        pending = pending.subarray(length);
        base += length;
      }
      if (bytesRead === 0) {
        if (pending.length > 0) throw new Error(`${path}: ends inside a document (at byte ${base})`);
        return;
      }
    }
  } finally {
    await file.close();
  }
}

/** One Extended JSON document (relaxed: numbers as numbers, `$oid` as ObjectId, `$date` as Date). */
function parseExtendedJson(text: string, where: string): RawDoc {
  try {
    const doc: unknown = BSON.EJSON.parse(text, { relaxed: true });
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('not an object');
    return doc as RawDoc;
  } catch (error) {
    throw new Error(
      `${where}: not an Extended JSON document (${error instanceof Error ? error.message : 'unreadable'})`,
    );
  }
}

/** The documents of a `mongoexport` file: JSON lines, or one JSON array (`--jsonArray`, read whole). */
export async function* jsonRecords(path: string): AsyncGenerator<Located> {
  const file = await open(path, 'r');
  try {
    const first = Buffer.alloc(64);
    const { bytesRead } = await file.read(first, 0, 64, 0);
    if (first.subarray(0, bytesRead).toString('utf8').trimStart().startsWith('[')) {
      const all: unknown = BSON.EJSON.parse(await readFile(path, 'utf8'), { relaxed: true });
      if (!Array.isArray(all)) throw new Error(`${path}: not a JSON array`);
      for (const doc of all) yield { doc: doc as RawDoc };
      return;
    }
    let pending = Buffer.alloc(0);
    let base = 0;
    for (let position = 0; ;) {
      const block = Buffer.alloc(BLOCK);
      const read = await file.read(block, 0, BLOCK, position);
      position += read.bytesRead;
      pending = Buffer.concat([pending, block.subarray(0, read.bytesRead)]);
      const last = read.bytesRead === 0;
      for (
        let end = pending.indexOf(10);
        end >= 0 || (last && pending.length > 0);
        end = pending.indexOf(10)
      ) {
        const length = end >= 0 ? end + 1 : pending.length;
        const line = pending.subarray(0, length).toString('utf8').trim();
        if (line !== '')
          yield { doc: parseExtendedJson(line, `${path} at byte ${base}`), at: { offset: base, length } };
        pending = pending.subarray(length);
        base += length;
      }
      if (last) return;
    }
  } finally {
    await file.close();
  }
}

/** Reads again the document at `at` of a BSON (`json: false`) or JSON lines file. */
export async function recordAt(
  path: string,
  at: { offset: number; length: number },
  json: boolean,
): Promise<RawDoc> {
  const file = await open(path, 'r');
  try {
    const bytes = Buffer.alloc(at.length);
    await file.read(bytes, 0, at.length, at.offset);
    return json
      ? parseExtendedJson(bytes.toString('utf8'), `${path} at byte ${at.offset}`)
      : BSON.deserialize(bytes);
  } finally {
    await file.close();
  }
}
