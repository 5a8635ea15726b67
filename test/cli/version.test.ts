/**
 * One version, the root package.json's: `fleet --version` (the compiled bin), the start line,
 * `/api/health` and the OpenAPI document's `info.version` say it; every workspace package carries
 * it; CHANGELOG.md has its section. The licence is MIT in LICENSE, package.json and the document.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { license, version as VERSION } from '../../package.json';
import { startTestServer } from '../helpers';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'packages', 'server', 'bin', 'fleet.cjs');
const read = (...path: string[]) => readFileSync(join(ROOT, ...path), 'utf8');

it('fleet --version prints it, and nothing else', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--version']);
  expect(stdout).toBe(`${VERSION}\n`);
});

it('the start line, /api/health and the OpenAPI document say it', async () => {
  const t = await startTestServer({ logLevel: 'info' });
  try {
    const listening = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('"fleet-api listening"'))
      .map((line) => JSON.parse(line) as { version?: string });
    expect(listening.map((l) => l.version)).toEqual([VERSION]);
    expect((await t.request.get('/api/health')).body).toMatchObject({ version: VERSION });
    const doc = (await t.request.get('/api/openapi.json')).body as { info: Record<string, unknown> };
    expect(doc.info).toMatchObject({ version: VERSION, license: { name: 'MIT', identifier: 'MIT' } });
  } finally {
    await t.close();
  }
});

it('every workspace package carries it', () => {
  const manifests = [
    'engine',
    'resources',
    'test',
    ...readdirSync(join(ROOT, 'packages')).map((p) => `packages/${p}`),
  ];
  const versions = manifests.map((dir) => {
    const pkg = JSON.parse(read(dir, 'package.json')) as { name: string; version: string };
    return `${pkg.name}@${pkg.version}`;
  });
  expect(versions.filter((v) => !v.endsWith(`@${VERSION}`))).toEqual([]);
});

it('CHANGELOG.md has its section, and the licence is MIT throughout', () => {
  expect(read('CHANGELOG.md')).toMatch(
    new RegExp(`^## \\[${VERSION.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
  );
  expect(license).toBe('MIT');
  expect(read('LICENSE')).toMatch(/^MIT License\n/);
});
