/**
 * One door: outside `engine/` nothing reads or writes the store directly — hooks, routes, the sync,
 * the scheduler, snapshots and integrations go through the local API, and reach media and leases
 * through their narrow services. Only the server's bootstrap opens, hands over and closes the
 * store. This test reads the sources and names every line that goes around the door.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The bootstrap: it opens the store, gives it to the engine, and closes it. */
const BOOTSTRAP: Readonly<Record<string, string>> = {
  'packages/server/src/boot.ts': 'opens the store, hands it to the engine, closes it on shutdown',
  'packages/server/src/store.ts': 'chooses and opens the store adapter from DATABASE_URL',
  'packages/server/src/telemetry/timed-store.ts':
    'wraps the store boot.ts opens so each operation it is asked times into the metrics; it asks nothing itself',
};

/** Source trees that must use the local API (simulators are peers, not the service). */
function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, 'resources'));
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    if (pkg.endsWith('-sim')) continue;
    walk(join(ROOT, 'packages', pkg));
  }
  return out.filter((file) => !(file in BOOTSTRAP));
}

/** What going around the door looks like in the source. */
const AROUND_THE_DOOR: readonly [RegExp, string][] = [
  [
    /\bstore\.(find|insert|update|delete|count|aggregate|findOneAndUpdate|write|ensureCollection|media|leases)\b/,
    'a direct store call',
  ],
  [/\.store\b(?!\s*:)/, 'the store reached through an object'],
  [/import[^;]*\bStore\b[^;]*from '@fleet\/engine/, 'the Store port imported'],
  [/from '@fleet\/engine\/src\/store/, 'a store adapter imported'],
];

it('no code outside engine/ and the bootstrap touches the store', () => {
  const found: string[] = [];
  for (const file of sources()) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\*|\/\/)/.test(line)) return;
        for (const [pattern, what] of AROUND_THE_DOOR)
          if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

it('the bootstrap files exist (the allowance names real files)', () => {
  for (const file of Object.keys(BOOTSTRAP)) expect(statSync(join(ROOT, file)).isFile()).toBe(true);
});
