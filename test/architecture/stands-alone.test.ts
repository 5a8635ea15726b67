/**
 * The project stands alone: no tracked file points a reader outside the repository (a sibling
 * directory of notes, a design document, a tracker's numbers) for what it needs; that lives in
 * docs/, in the project's own words. The changelog may name history.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** What a pointer outside the repository looks like. */
const OUTSIDE = [
  /\.\.\/shared\b/,
  /\bshared\/(spec|research|bench-anchors|DESIGN|STYLE)\b/,
  /\bDESIGN(\.md)? §/,
  /\bDESIGN\.md\b/,
  /\b[Ii]ssue [0-9]+/,
  /\bnotes §/,
  /\bresearch\/[a-z-]+\.md\b/,
];

/** This test names the patterns it looks for; the changelog is history. */
const EXEMPT = new Set(['CHANGELOG.md', 'test/architecture/stands-alone.test.ts']);

function trackedTextFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return out
    .split('\0')
    .filter((f) => f !== '' && !EXEMPT.has(f))
    .filter((f) =>
      /\.(ts|cts|mts|js|cjs|mjs|json|md|sh|yml|yaml|txt|example)$|(^|\/)(Dockerfile|run)$/.test(f),
    )
    .filter((f) => !f.endsWith('pnpm-lock.yaml'));
}

it('no tracked file points outside the repository for what a reader needs', () => {
  const found: string[] = [];
  for (const file of trackedTextFiles()) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const hit = OUTSIDE.find((re) => re.test(line));
      if (hit) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  expect(found).toEqual([]);
});
