/**
 * Uploads: a create as `multipart/form-data` (files' `data`), the one body a resource with
 * media fields takes its files in (engine/src/http/multipart.ts). Text fields are sent as text,
 * objects and lists as JSON text, files as file parts with their name.
 */
import { FleetApiError, type FleetClient, type Schemas } from './client';
import type { paths, Readable, Writable } from './schema';

/** The paths that take a multipart create. */
export type UploadPath = {
  [P in keyof paths]: paths[P] extends { post: { requestBody: { content: { 'multipart/form-data': unknown } } } } ? P : never;
}[keyof paths];

type UploadBody<P extends UploadPath> = Writable<paths[P]['post']['requestBody']['content']['multipart/form-data']>;
type Written<P extends UploadPath> = Readable<Extract<paths[P]['post']['responses'][201]['content']['application/json'], { _id: unknown }>>;

/** The fields of an upload: a file field takes a `Blob` (a `File` keeps its name). */
export type UploadFields<P extends UploadPath> = { [K in keyof UploadBody<P>]: UploadBody<P>[K] extends string ? string | Blob : UploadBody<P>[K] };

/** The multipart body of `fields`; a `Blob` that is not a `File` is named `filename` (default: the field name). */
export function formDataOf(fields: Readonly<Record<string, unknown>>, filename?: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : (filename ?? name));
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
): Promise<Written<P>> {
  const form = formDataOf(fields, options.filename);
  const post = client.POST as unknown as (
    path: string,
    init: { body: unknown; bodySerializer: () => FormData },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  // fetch sets the multipart Content-Type with its boundary itself.
  const { data, error, response } = await post(path, { body: fields, bodySerializer: () => form });
  if (error !== undefined || !response.ok) throw new FleetApiError(response.status, error as Schemas['Error'] | undefined);
  return data as Written<P>;
}
