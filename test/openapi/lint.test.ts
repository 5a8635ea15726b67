/**
 * `redocly lint` (the recommended rules, less the two redocly.yaml turns off with its reasons)
 * finds nothing in the generated document: no error, no warning. It reads the file only: the
 * update check and the usage report are off, and it was seen to pass with no network at all.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiDocument, createRegistry } from '../../engine/src';
import { allResources, allRouteGroups } from '../../resources';

const ROOT = join(__dirname, '..', '..');

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly { readonly ruleId: string; readonly message: string }[];
}

it('redocly lint: 0 errors and 0 warnings', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(apiDocument(createRegistry(allResources, allRouteGroups))));
    const run = promisify(execFile);
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run(
      join(ROOT, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'],
      {
        cwd: dir,
        env,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout) as LintReport;
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
