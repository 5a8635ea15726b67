/**
 * Patch download (DESIGN §5 "updates"): the master's `patches/` directory on its file server is
 * listed with the runner `fileserver.file_list` and each file is read with `cp.get_file_str`
 * on a connected minion (salt-api notes §8b: salt-api has no call that reads a file on the
 * master itself). Each patch is upserted by `name` (its path below `patches/`): `text` takes the
 * content, a local `description` is kept. Patches no longer on the master are kept.
 */
import { randomBytes } from 'node:crypto';
import { NotFound, type Log, type Store } from '@fleet/engine';
import { newObjectId } from '@fleet/engine/src/store/sqlite/ids';
import type { PatchDownload } from '../../../../resources/lib/master';
import type { SaltClient } from '../client';

/** The file-server directory holding the patches. */
export const PATCH_DIR = 'patches/';

export interface PatchDeps {
  readonly client: SaltClient;
  readonly store: Store;
  readonly log: Log;
}

/** Reads every patch file; a listed file that cannot be read (gone meanwhile) is skipped. */
async function readPatches(deps: PatchDeps, paths: readonly string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  // One connected minion reads them all (fileRead would ask manage.present once per file).
  const present = await deps.client.runner('manage.present');
  const reader = Array.isArray(present) && typeof present[0] === 'string' ? { tgt: present[0] } : {};
  const texts = new Map<string, string>();
  for (const path of paths) {
    try {
      texts.set(path.slice(PATCH_DIR.length), await deps.client.fileRead(path, reader));
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      deps.log.warn({ path }, 'patch listed by the master could not be read; skipped');
    }
  }
  return texts;
}

/** Inserts or updates one patch; resolves what happened to it. */
async function upsertPatch(store: Store, name: string, text: string, now: Date): Promise<'created' | 'updated' | 'unchanged'> {
  const meta = { _updated: now, _etag: randomBytes(20).toString('hex') };
  const [existing] = await store.find('updates', { name }, { limit: 1, projection: { text: 1 } });
  if (existing) {
    if (existing.text === text) return 'unchanged';
    await store.update('updates', { _id: existing._id }, { $set: { text, ...meta } });
    return 'updated';
  }
  const result = await store.update('updates', { name }, { $set: { text, ...meta }, $setOnInsert: { _id: newObjectId(), description: '', _created: now } }, { upsert: true });
  return result.upsertedId !== undefined ? 'created' : 'updated';
}

/** Downloads the patches and upserts them; `created` / `updated` count real changes. */
export async function downloadPatches(deps: PatchDeps, now: Date): Promise<PatchDownload> {
  const paths = (await deps.client.fileList(PATCH_DIR)).filter((p) => p.length > PATCH_DIR.length && !p.endsWith('/'));
  const texts = await readPatches(deps, paths);
  let created = 0;
  let updated = 0;
  for (const [name, text] of texts) {
    const outcome = await upsertPatch(deps.store, name, text, now);
    if (outcome === 'created') created += 1;
    if (outcome === 'updated') updated += 1;
  }
  deps.log.info({ created, updated, listed: paths.length }, 'patches downloaded from the master');
  return { created, updated, names: [...texts.keys()] };
}
