/**
 * Patch download: the master's `patches/` directory on its file server is
 * listed with the runner `fileserver.file_list` and each file is read with `cp.get_file_str`
 * on a connected minion (salt/runners/fileserver.py, salt/modules/cp.py: salt-api has no call that reads a file on the
 * master itself). Each patch is upserted by `name` (its path below `patches/`): `text` takes the
 * content, a local `description` is kept. Patches no longer on the master are kept.
 */
import { NotFound, systemContext, type CallContext, type Log, type Runtime } from '@fleet/engine';
import { updates, type PatchDownload } from '@fleet/resources';
import type { SaltClient } from '../client';

/** The file-server directory holding the patches. */
export const PATCH_DIR = 'patches/';

export interface PatchDeps {
  readonly client: SaltClient;
  readonly runtime: Runtime;
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

/**
 * Creates or updates one patch (by name); resolves what happened to it. `text` is server-set, so
 * the service writes it as the system principal; a local `description` is never touched.
 */
async function upsertPatch(
  runtime: Runtime,
  ctx: CallContext,
  name: string,
  text: string,
): Promise<'created' | 'updated' | 'unchanged'> {
  const api = runtime.resources.of(updates);
  const [existing] = await api.find({ where: { name }, limit: 1, projection: { text: 1 } }, ctx);
  if (existing === undefined) {
    await api.create({ name, text }, ctx);
    return 'created';
  }
  if (existing.text === text) return 'unchanged';
  await api.patch(existing._id, { text }, ctx);
  return 'updated';
}

/** Downloads the patches and upserts them; `created` / `updated` count real changes. */
export async function downloadPatches(deps: PatchDeps, now: Date): Promise<PatchDownload> {
  const paths = (await deps.client.fileList(PATCH_DIR)).filter(
    (p) => p.length > PATCH_DIR.length && !p.endsWith('/'),
  );
  const texts = await readPatches(deps, paths);
  let created = 0;
  let updated = 0;
  for (const [name, text] of texts) {
    const outcome = await upsertPatch(deps.runtime, systemContext(deps.runtime, now), name, text);
    if (outcome === 'created') created += 1;
    if (outcome === 'updated') updated += 1;
  }
  deps.log.info({ created, updated, listed: paths.length }, 'patches downloaded from the master');
  return { created, updated, names: [...texts.keys()] };
}
