/**
 * ETags: a SHA-1 of the document's canonical JSON (keys sorted, `_etag` left out), stored in
 * `_etag` at every write so projections never change it (Eve's `document_etag`).
 *
 * The canonical text is written with an explicit stack, never by recursion: a body nested 10,000
 * deep overflowed the call stack here. Bodies are bounded before they reach a write
 * (http/api.ts), so this is the second line; the text is exactly what
 * `JSON.stringify(sortedCopy(doc))` gave, so stored etags keep their values.
 */
import { createHash } from 'node:crypto';

/** A piece of output already rendered, or a value still to render. */
type Work = readonly [kind: 'text', text: string] | readonly [kind: 'value', value: unknown];

/** What JSON.stringify leaves out of an object (and writes as `null` in an array). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Array-index keys (`"0"`, `"17"`): a JavaScript object lists them first, in numeric order. */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;
const isIndexKey = (key: string) => INDEX_KEY.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * The keys in the order the sorted copy of before listed them: it inserted the sorted keys into a
 * fresh object, whose own-key order (ECMA-262 OrdinaryOwnPropertyKeys) puts array indexes first.
 */
function canonicalKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record)
    .sort()
    .filter((key) => key !== '_etag' && !skipped(record[key]));
  const indexes = keys.filter(isIndexKey).sort((a, b) => Number(a) - Number(b));
  return indexes.length === 0 ? keys : [...indexes, ...keys.filter((key) => !isIndexKey(key))];
}

/** Pushes the parts of an array or object in reverse, so they pop in order. */
function pushContainer(stack: Work[], value: object): void {
  if (Array.isArray(value)) {
    stack.push(['text', ']']);
    for (let i = value.length - 1; i >= 0; i--) {
      const item: unknown = value[i];
      stack.push(skipped(item) ? ['text', 'null'] : ['value', item]);
      if (i > 0) stack.push(['text', ',']);
    }
    stack.push(['text', '[']);
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = canonicalKeys(record);
  stack.push(['text', '}']);
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string;
    stack.push(['value', record[key]], ['text', `${JSON.stringify(key)}:`]);
    if (i > 0) stack.push(['text', ',']);
  }
  stack.push(['text', '{']);
}

/** The canonical JSON text: keys sorted at every level, `_etag` left out at every level, dates as ISO 8601. */
export function canonicalJson(doc: unknown): string {
  const out: string[] = [];
  const stack: Work[] = [['value', doc]];
  for (let work = stack.pop(); work !== undefined; work = stack.pop()) {
    if (work[0] === 'text') out.push(work[1]);
    else if (work[1] instanceof Date) out.push(JSON.stringify(work[1].toISOString()));
    else if (work[1] !== null && typeof work[1] === 'object') pushContainer(stack, work[1]);
    else out.push(JSON.stringify(work[1]) ?? 'null');
  }
  return out.join('');
}

/** The ETag of a stored document. */
export function etagOf(doc: Record<string, unknown>): string {
  return createHash('sha1').update(canonicalJson(doc)).digest('hex');
}

/**
 * The etags of `doc` with each of `values` as its top-level `key`: what `etagOf` gives for each,
 * with the rest of the document written once. A change checks whether the item changed (its old
 * `_updated`) and stamps the new version (the new one) at the cost of one pass, not two.
 */
export function etagsWith(doc: Record<string, unknown>, key: string, values: readonly unknown[]): string[] {
  if (key === '_etag' || values.some(skipped)) return values.map((value) => etagOf({ ...doc, [key]: value }));
  const quoted = JSON.stringify(key);
  const parts = canonicalKeys({ ...doc, [key]: null }).map((k) =>
    k === key ? undefined : `${JSON.stringify(k)}:${canonicalJson(doc[k])}`,
  );
  return values.map((value) => {
    const own = `${quoted}:${canonicalJson(value)}`;
    const text = `{${parts.map((part) => part ?? own).join(',')}}`;
    return createHash('sha1').update(text).digest('hex');
  });
}

/** Whether an `If-Match` header value names this etag (quotes and `W/` accepted). */
export function etagMatches(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((v) => v.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
    .some((v) => v === etag || v === '*');
}
