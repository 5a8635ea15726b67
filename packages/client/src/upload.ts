/**
 * Uploads: a create as `multipart/form-data` (files' `data`), the one body a resource with
 * media fields takes its files in (engine/src/http/multipart.ts). Text fields are sent as text,
 * objects and lists as JSON text, files as file parts with their name.
 */
import { failure, succeeded, type FleetClient } from './client';
import { byPathKind, type UploadBody, type Uploaded, type UploadPath } from './kinds';

export type { UploadPath } from './kinds';

/** The fields of an upload: a file field takes a `Blob` (a `File` keeps its name). */
export type UploadFields<P extends UploadPath> = {
  [K in keyof UploadBody<P>]: UploadBody<P>[K] extends string ? string | Blob : UploadBody<P>[K];
};

/** The multipart body of `fields`; a `Blob` that is not a `File` is named `filename` (default: the field name). */
export function formDataOf(fields: Readonly<Record<string, unknown>>, filename?: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof Blob)
      form.append(name, value, value instanceof File ? value.name : (filename ?? name));
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
