/**
 * Declared relations (Eve's `data_relation`, Prisma's `onDelete`): ids written must name existing,
 * visible items (422 naming the field); a delete follows each referring field's rule — `restrict`
 * refuses it (409) while a visible item refers to the target, `pull` and `nullify` change the
 * referring items in the same batch as the delete.
 */
import type { CompiledResource, Reference } from '../compile/compile';
import { Conflict, Unprocessable } from '../errors';
import type { BatchWrite, Doc } from '../store/port';
import type { OpsDeps } from './context';
import { etagOf } from './etag';
import { isHidden, scoped } from './scope';

/** The value at a dotted path. */
export function valueAt(doc: Readonly<Record<string, unknown>>, path: string): unknown {
  let node: unknown = doc;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A copy of `doc` with `value` at a dotted path (containers on the path copied). */
function withValueAt(doc: Doc, path: string, value: unknown): Doc {
  const [head, ...rest] = path.split('.');
  if (head === undefined) return doc;
  if (rest.length === 0) return { ...doc, [head]: value };
  const child = doc[head];
  const inner =
    child !== null && typeof child === 'object' && !Array.isArray(child) ? (child as Doc) : ({} as Doc);
  return { ...doc, [head]: withValueAt(inner, rest.join('.'), value) };
}

function idsIn(value: unknown): string[] {
  return [value].flat().filter((v): v is string => typeof v === 'string' && v !== '');
}

type Written = readonly { readonly doc: Doc; readonly original?: Doc }[];

/**
 * Per written document, the ids of each checked reference that name no visible item of the
 * target (ids already in the original are not checked again). One query per reference field for
 * the whole batch.
 */
async function missingReferences(
  deps: OpsDeps,
  res: CompiledResource,
  written: Written,
): Promise<Map<Reference, string[]>[]> {
  const out = written.map(() => new Map<Reference, string[]>());
  for (const ref of res.references) {
    if (!ref.exists) continue;
    const added = written.map(({ doc, original }) => {
      const before = new Set(original ? idsIn(valueAt(original, ref.path)) : []);
      return idsIn(valueAt(doc, ref.path)).filter((id) => !before.has(id));
    });
    // Items of the same batch exist once it is written (a container and its subgroups posted together).
    const batch = ref.to === res.name ? new Set(written.map(({ doc }) => doc._id)) : new Set<string>();
    const wanted = new Set(added.flat().filter((id) => !batch.has(id)));
    if (wanted.size === 0) continue;
    const target = deps.registry.get(ref.to);
    const found = await deps.store.find(ref.to, scoped(target, { _id: { $in: [...wanted] } }), {
      projection: { _id: 1 },
    });
    const present = new Set([...found.map((d) => d._id), ...batch]);
    added.forEach((ids, i) => {
      const missing = ids.filter((id) => !present.has(id));
      if (missing.length > 0) out[i]?.set(ref, missing);
    });
  }
  return out;
}

function referenceMessage(ref: Reference, missing: readonly string[]): string {
  return `unknown ${ref.to} id(s): ${[...new Set(missing)].slice(0, 20).join(', ')}`;
}

/** Per written document, its reference issues (by dotted path), or null when every id it adds exists. */
export async function referenceIssues(
  deps: OpsDeps,
  res: CompiledResource,
  written: Written,
): Promise<(Record<string, string> | null)[]> {
  return (await missingReferences(deps, res, written)).map((byRef) =>
    byRef.size === 0
      ? null
      : Object.fromEntries([...byRef].map(([ref, missing]) => [ref.path, referenceMessage(ref, missing)])),
  );
}

/** Checks the references the written documents carry: every id added must name a visible item of the target (422). */
export async function checkReferences(deps: OpsDeps, res: CompiledResource, written: Written): Promise<void> {
  const byRef = new Map<Reference, string[]>();
  for (const doc of await missingReferences(deps, res, written))
    for (const [ref, missing] of doc) byRef.set(ref, [...(byRef.get(ref) ?? []), ...missing]);
  if (byRef.size === 0) return;
  const issues = Object.fromEntries(
    [...byRef].map(([ref, missing]) => [ref.path, referenceMessage(ref, missing)]),
  );
  throw new Unprocessable(`${res.name}: a reference names no existing item`, issues);
}

/** The referring item after dropping the deleted ids from one reference field. */
function detach(doc: Doc, ref: Reference, deleted: ReadonlySet<string>): Doc {
  const value = valueAt(doc, ref.path);
  if (ref.many)
    return withValueAt(
      doc,
      ref.path,
      Array.isArray(value) ? value.filter((v) => !(typeof v === 'string' && deleted.has(v))) : value,
    );
  return withValueAt(doc, ref.path, null);
}

/**
 * The writes a delete of `ids` of `res` implies on the items referring to them: new versions of
 * the referring items (ids pulled or nulled), or a 409 when a `restrict` reference of a visible
 * item still names one of them. Items being deleted in the same batch are left alone.
 */
export async function deleteEffects(
  deps: OpsDeps,
  res: CompiledResource,
  ids: ReadonlySet<string>,
  now: Date,
): Promise<BatchWrite[]> {
  const changed = new Map<string, { from: CompiledResource; original: Doc; next: Doc }>();
  const blocked: string[] = [];
  for (const { from, ref } of deps.registry.referrers(res.name)) {
    const referring = await deps.store.find(from.name, { [ref.path]: { $in: [...ids] } });
    for (const found of referring) {
      if (from.name === res.name && ids.has(found._id)) continue;
      const key = `${from.name}\u0000${found._id}`;
      const entry = changed.get(key) ?? { from, original: found, next: found };
      const canDetach = ref.many || ref.nullable;
      if (ref.onDelete === 'restrict' && (!isHidden(from, found) || !canDetach)) {
        blocked.push(`${from.name} "${found._id}" (${ref.path})`);
        continue;
      }
      entry.next = detach(entry.next, ref, ids);
      changed.set(key, entry);
    }
  }
  if (blocked.length > 0) {
    const what = [...ids].map((id) => `"${id}"`).join(', ');
    throw new Conflict(
      `${res.itemTitle} ${what} is still used by ${blocked.length} item(s): ${blocked.slice(0, 10).join(', ')}; change or delete them first`,
    );
  }
  return [...changed.values()].map(({ from, original, next }) => {
    const doc: Doc = { ...next, _updated: now };
    doc._etag = etagOf(doc);
    return { op: 'replace' as const, collection: from.name, doc, ifEtag: String(original._etag) };
  });
}
