/** Python's view of JSON scalars, as salt-api reads the fields of a chunk. */

/** A scalar of a chunk as text (`str()` of a string, number or boolean); `fallback` otherwise. */
export function text(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
}

/** Python-style truthiness of a CLI/JSON flag (`True`, `true`, `1`, true). */
export function truthy(v: unknown): boolean {
  if (typeof v === 'string') return ['true', '1', 'yes'].includes(v.toLowerCase());
  return v === true || v === 1;
}
