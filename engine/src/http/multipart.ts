/**
 * `multipart/form-data` bodies (a file's `name` and `data`): Multer spools each upload to a temp
 * file under the size limit, then the bytes are streamed into the media store. Text parts are
 * converted to their declared field types and bounded as form fields are (form.ts): the same
 * depth, key and size limits as a JSON body (docs/limits.md).
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Writable } from 'node:stream';
import type { RequestHandler } from 'express';
import multer from 'multer';
import type { CompiledResource } from '../compile/compile';
import { PayloadTooLarge } from '../errors';
import { MAX_BODY_KEY_LENGTH, MAX_BODY_KEYS, MAX_BODY_TEXT_BYTES } from '../query/bounds';
import type { MediaStore } from '../store/port';
import { refuseDeclaredOver } from './declared-length';
import { formFields } from './form';
import { writeBody } from './handlers';

/** Room for the parts' headers and boundaries in a declared length, beside the files and text. */
const FRAMING_BYTES = 1024 * 1024;

/**
 * Feeds the request to busboy, counting the bytes of the text parts (names and values) together:
 * past {@link MAX_BODY_TEXT_BYTES} the parse stops with a 413, as a JSON or form body would.
 * (Multer's own limits bound each text part and their number, not their sum.)
 */
function textBudget(req: NodeJS.ReadableStream, busboy: Writable): void {
  let bytes = 0;
  // A part without a name comes with `name` undefined (Multer refuses it: MISSING_FIELD_NAME).
  busboy.on('field', (name: unknown, value: unknown) => {
    for (const text of [name, value]) if (typeof text === 'string') bytes += Buffer.byteLength(text);
    if (bytes > MAX_BODY_TEXT_BYTES)
      busboy.destroy(
        new PayloadTooLarge(`The text parts of the body are larger than ${MAX_BODY_TEXT_BYTES} bytes in all`),
      );
  });
  req.pipe(busboy);
}

/** Multer middleware for a resource's media fields, after a check of the declared size. */
export function multipartParser(res: CompiledResource, maxUploadBytes: number): RequestHandler {
  const files = Math.max(1, res.mediaFields.length);
  const options = {
    dest: tmpdir(),
    // Browsers send a UTF-8 filename without an explicit charset (RFC 7578 §4.2); latin1 garbles it.
    defParamCharset: 'utf8',
    // `a[b][c]` names nest into objects, dotted names once validated: the body bounds check both (form.ts).
    limits: {
      fileSize: maxUploadBytes,
      files,
      fields: MAX_BODY_KEYS,
      fieldSize: MAX_BODY_TEXT_BYTES,
      fieldNameSize: MAX_BODY_KEY_LENGTH,
      fieldNestingDepth: 4,
    },
    // Multer 2 takes a stream handler (its README); @types/multer does not know it yet.
    streamHandler: textBudget,
  };
  const parse = multer(options).fields(res.mediaFields.map((name) => ({ name, maxCount: 1 })));
  const most = files * maxUploadBytes + MAX_BODY_TEXT_BYTES + FRAMING_BYTES;
  const allowed = `an upload to ${res.name} may be (${files} file(s) of at most ${maxUploadBytes} bytes, and 1 MB of text parts)`;
  return (req, resp, next) => {
    refuseDeclaredOver(req, most, allowed);
    parse(req, resp, next);
  };
}

type UploadedFiles = Record<string, Express.Multer.File[]>;

/**
 * Stores the uploaded files and returns the body with media ids; `stored` lists them for rollback.
 * The spooled temp files are removed whatever happens, a refused text part included.
 */
export async function multipartBody(
  res: CompiledResource,
  fields: unknown,
  files: UploadedFiles | undefined,
  media: MediaStore,
): Promise<{ body: Record<string, unknown>; stored: string[] }> {
  const stored: string[] = [];
  try {
    const body = formFields(res, writeBody(res, fields ?? {}));
    for (const [name, list] of Object.entries(files ?? {})) {
      const file = list[0];
      if (!file) continue;
      const info = await media.put(createReadStream(file.path), {
        filename: file.originalname,
        contentType: file.mimetype || 'application/octet-stream',
      });
      stored.push(info.id);
      body[name] = info.id;
      if (res.def.fields.name?.kind === 'string' && body.name === undefined) body.name = file.originalname;
    }
    return { body, stored };
  } finally {
    await Promise.all(
      Object.values(files ?? {})
        .flat()
        .map((f) => unlink(f.path).catch(() => undefined)),
    );
  }
}
