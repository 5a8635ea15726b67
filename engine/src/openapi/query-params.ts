/**
 * The query parameters a definition lists under `queryParams` (definition/define.ts), as OpenAPI
 * parameters:
 *
 *     queryParams: { mark_as_read: { description: '...', role: 'operator', schema: { type: 'string', enum: ['0', '1'] } } }
 */
import type { CompiledResource } from '../compile/compile';
import type { Role } from '../definition/fields';
import type { Schema } from './schema';

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
