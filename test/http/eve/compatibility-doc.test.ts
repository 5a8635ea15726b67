/**
 * docs/eve-compatibility.md stays true: every difference from Eve it lists names the test that
 * pins it, and every test it names exists (the file, and the quoted words of the test's title).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ISSUE_MESSAGES } from '../../../engine/src/compile/zod';

const ROOT = join(__dirname, '..', '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'eve-compatibility.md'), 'utf8');

/** The table rows of a `## ` section (header and separator rows left out). */
function rows(section: string): string[] {
  const start = DOC.indexOf(`## ${section}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = DOC.indexOf('\n## ', start + 3);
  const body = DOC.slice(start, end === -1 ? undefined : end);
  return body
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('| ') &&
        !line.startsWith('| Where |') &&
        !line.startsWith('| Behaviour |') &&
        !line.startsWith('| Kind |'),
    );
}

/** Every `[name](../test/...)` link of a row, with the quoted title words that follow it. */
function pins(row: string): { file: string; titles: string[] }[] {
  const out: { file: string; titles: string[] }[] = [];
  for (const m of row.matchAll(/\]\(\.\.\/(test\/[^)]+)\)((?:,?\s*“[^”]+”)*)/g)) {
    out.push({ file: m[1] ?? '', titles: [...(m[2] ?? '').matchAll(/“([^”]+)”/g)].map((t) => t[1] ?? '') });
  }
  return out;
}

describe('docs/eve-compatibility.md', () => {
  it('every deliberate difference names at least one test, by file and title', () => {
    const differences = rows('Deliberate differences');
    expect(differences.length).toBeGreaterThan(30);
    for (const row of differences) {
      const named = pins(row);
      expect({ row, pinned: named.length > 0 && named.every((p) => p.titles.length > 0) }).toEqual({
        row,
        pinned: true,
      });
    }
  });

  it('every test it names exists, with those words in its source', () => {
    const all = [...rows('Deliberate differences'), ...rows('Matching Eve')].flatMap(pins);
    expect(all.length).toBeGreaterThan(40);
    for (const { file, titles } of all) {
      const path = join(ROOT, file);
      expect({ file, exists: existsSync(path) }).toEqual({ file, exists: true });
      const source = readFileSync(path, 'utf8');
      for (const title of titles)
        expect({ file, title, found: source.includes(title) }).toEqual({ file, title, found: true });
    }
  });

  it('lists every message of the one table', () => {
    const table = rows('Validation messages').join('\n');
    for (const [kind, message] of Object.entries(ISSUE_MESSAGES)) {
      if (kind === 'custom') continue;
      const words = message.split(/\{\w+\}/)[0]?.trim() ?? message;
      expect({ kind, listed: table.includes(words) }).toEqual({ kind, listed: true });
    }
  });
});
