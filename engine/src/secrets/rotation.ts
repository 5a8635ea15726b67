/**
 * Key rotation and the start's check, over the stored documents themselves (the local API masks
 * what it reads and seals what it writes, so neither can see or move a sealed value). Every
 * resource with secrets is read in `_id` pages, index order, so no read meets the row budget.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { SecretBox } from '../definition/define';
import { etagOf } from '../ops/etag';
import type { BatchWrite, Doc, Projection, Store } from '../store/port';
import { secretFields } from './fields';

/** Items read per page. */
const SCAN_PAGE = 500;

/** Every stored item of a resource with secrets, in `_id` pages. */
async function* storedPages(
  store: Store,
  res: CompiledResource,
  projection?: Projection,
): AsyncGenerator<Doc[]> {
  if (res.secretPaths.length === 0) return;
  await store.ensureCollection(res.collection);
  for (let after = ''; ;) {
    const page = await store.find(
      res.name,
      { _id: { $gt: after } },
      { sort: [['_id', 1]], limit: SCAN_PAGE, ...(projection ? { projection } : {}) },
    );
    if (page.length > 0) yield page;
    const last = page[page.length - 1];
    if (last === undefined || page.length < SCAN_PAGE) return;
    after = last._id;
  }
}

/** Whether any stored item holds a sealed secret (`enc:v1:...`), under any key. */
export async function storeHoldsSealed(store: Store, registry: Registry): Promise<boolean> {
  for (const res of registry.resources.values()) {
    const fields = secretFields(res.secretPaths);
    const tops = new Set(res.secretPaths.map((p) => p.split('.')[0] ?? p));
    const projection = Object.fromEntries([...tops].map((top) => [top, 1 as const]));
    for await (const page of storedPages(store, res, projection))
      if (page.some((doc) => fields.holdsSealed(doc))) return true;
  }
  return false;
}

/**
 * Seals every stored secret again with `box`, opening each with `previous`. A value already sealed
 * with `box` (a rotation cut short, run again) is kept; one neither key opens fails the run.
 * Resolves how many items were rewritten (each with its new `_etag`, if it did not change meanwhile).
 */
export async function resealStore(
  store: Store,
  registry: Registry,
  box: SecretBox,
  previous: SecretBox,
): Promise<number> {
  const reseal = (value: string): string => {
    try {
      return box.seal(previous.open(value));
    } catch {
      box.open(value); // Sealed with the new key already (a run cut short): kept; else this throws.
      return value;
    }
  };
  let changed = 0;
  for (const res of registry.resources.values()) {
    const fields = secretFields(res.secretPaths);
    for await (const page of storedPages(store, res)) {
      const batch: BatchWrite[] = [];
      for (const doc of page) {
        // A value kept as it was is the same string: the walk then returns `doc` itself.
        const next = fields.reseal(doc, reseal);
        if (next === doc) continue;
        batch.push({
          op: 'replace',
          collection: res.name,
          doc: { ...next, _etag: etagOf(next) },
          ifEtag: String(doc._etag),
        });
      }
      if (batch.length > 0) await store.write(batch);
      changed += batch.length;
    }
  }
  return changed;
}
