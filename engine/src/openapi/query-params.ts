/**
 * Query parameters a resource's hooks read (an alert's `mark_as_read`, read by its `afterRead`):
 * the router hands every parameter beyond the common six to the hooks, so only the definition
 * knows which ones mean something. A definition lists them under `queryParams`:
 *
 *     queryParams: { mark_as_read: { description: '...', role: 'operator', schema: { type: 'string', enum: ['0', '1'] } } }
 */
import type { CompiledResource } from '../compile/compile';
import type { Role } from '../definition/fields';
import type { Schema } from './schema';

/** One query parameter a resource reads besides the common ones. */
export interface QueryParamDoc {
  readonly description: string;
  /** JSON Schema of the value (default: a string). */
  readonly schema?: Schema;
  /** The least role the parameter needs, when above the operation's (403 otherwise). */
  readonly role?: Role;
  /** The GETs that read it (default: both). */
  readonly on?: readonly ('list' | 'get')[];
}

/** The parameters `res` reads on a list or item GET, as OpenAPI parameter objects. */
export function queryParamsOf(
  res: CompiledResource,
  on: 'list' | 'get',
): { parameter: Schema; role?: Role }[] {
  const declared = res.def.queryParams ?? {};
  return Object.entries(declared)
    .filter(([, p]) => (p.on ?? ['list', 'get']).includes(on))
    .map(([name, p]) => ({
      parameter: {
        name,
        in: 'query',
        required: false,
        description: p.role ? `${p.description} (needs role ${p.role} or higher)` : p.description,
        schema: p.schema ?? { type: 'string' },
      },
      ...(p.role ? { role: p.role } : {}),
    }));
}
