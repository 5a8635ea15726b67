/**
 * Uploads: a create as `multipart/form-data` (files' `data`), the one body a resource with
 * media fields takes its files in (engine/src/http/multipart.ts). Text fields are sent as text,
 * objects and lists as JSON text, files as file parts with their name.
 */
import { failure, succeeded, type FleetClient } from './client';
import { byPathKind, type UploadBody, type Uploaded, type UploadPath } from './kinds';

export type { UploadPath } from './kinds';

/** The fields of an upload: a file field takes a `Blob` (a `File` keeps its name). */
export type UploadFields<P extends UploadPath> = UploadBody<P>;

/**
 * The file name a `Blob` part is sent with, the one the API serves the file under: a `File`'s own;
 * else `filename`; else the item's `name` field when it has one (a file's name); else the field name.
 */
function partName(value: Blob, field: string, o: { filename?: string; name?: unknown }): string {
  if (value instanceof File) return value.name;
  if (o.filename !== undefined) return o.filename;
  return typeof o.name === 'string' && o.name !== '' ? o.name : field;
}

/** The multipart body of `fields`: text as text, objects and lists as JSON text, Blobs as file parts. */
export function formDataOf(fields: Readonly<Record<string, unknown>>, filename?: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof Blob)
      form.append(
        name,
        value,
        partName(value, name, { ...(filename ? { filename } : {}), name: fields.name }),
      );
    else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

/** Creates an item with files; resolves its write answer. */
export async function upload<P extends UploadPath>(
  client: FleetClient,
  path: P,
  fields: UploadFields<P>,
  options: { filename?: string } = {},
): Promise<Uploaded<P>> {
  const form = formDataOf(fields, options.filename);
  // fetch sets the multipart Content-Type with its boundary itself.
  const result = await byPathKind(client).POST(path, { body: fields, bodySerializer: () => form });
  if (!succeeded(result)) throw failure(result);
  return result.data;
}
