/**
 * The client's committed types are the ones the current definitions generate: `pnpm gen:client`
 * writes them into a temp file (in a process of its own: openapi-typescript loads ES modules Jest
 * cannot), and the file is compared with packages/client/src/schema.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');

it('packages/client/src/schema.ts is what pnpm gen:client generates now', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-client-'));
  try {
    const fresh = join(dir, 'schema.ts');
    await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [join(ROOT, 'packages', 'client', 'scripts', 'gen.ts'), fresh],
      { cwd: ROOT },
    );
    const generated = readFileSync(fresh, 'utf8');
    const committed = readFileSync(join(ROOT, 'packages', 'client', 'src', 'schema.ts'), 'utf8');
    if (generated !== committed)
      throw new Error(
        'packages/client/src/schema.ts is out of date with the definitions: run `pnpm gen:client` and commit it',
      );
    expect(generated).toContain("'/api/hosts/{id}': {");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
