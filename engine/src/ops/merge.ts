/**
 * PATCH semantics: sub-documents merge (`{"addresses": {"resolver_address": "x"}}` keeps
 * `master_address`), everything else — scalars, arrays, open objects' values — is replaced.
 */
import type { CompiledResource } from '../compile/compile';
import type { Field } from '../definition/fields';
import type { Doc } from '../store/port';
import { isPlainObject } from '../values';

function mergeField(field: Field | undefined, current: unknown, patch: unknown): unknown {
  if (field?.kind !== 'object' || !isPlainObject(patch) || !isPlainObject(current)) return patch;
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) out[k] = mergeField(field.fields[k], current[k], v);
  return out;
}

/** The document after applying a validated PATCH body. */
export function mergeDeep(original: Doc, patch: Record<string, unknown>, res: CompiledResource): Doc {
  const out: Doc = { ...original };
  for (const [k, v] of Object.entries(patch)) out[k] = mergeField(res.def.fields[k], original[k], v);
  return out;
}
