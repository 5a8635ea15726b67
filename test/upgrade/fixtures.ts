/**
 * The upgrade fixtures (made by make-fixture.mjs from this repository's own history): a store
 * each earlier release wrote, as SQL text, with what that release answered about it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Where the fixtures are, one directory per earlier release. */
export const FIXTURES_DIR = join(__dirname, 'fixtures');

/** One earlier release's store and answers. */
export interface ReleaseFixture {
  readonly name: string;
  readonly commit: string;
  /** When the release's commit was made (ISO 8601): the order of the releases. */
  readonly committed: string;
  /** The key that sealed the stored secrets, and the admin token the answers were read with. */
  readonly secretKey: string;
  readonly token: string;
  /** Path and query of each read -> the release's answer. */
  readonly answers: Readonly<Record<string, unknown>>;
  readonly sql: string;
}

/** Every fixture, oldest release first (by the time of its commit). */
export function releaseFixtures(): ReleaseFixture[] {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => existsSync(join(FIXTURES_DIR, name, 'store.sql')))
    .map((name) => {
      const dir = join(FIXTURES_DIR, name);
      const release = JSON.parse(readFileSync(join(dir, 'release.json'), 'utf8')) as Record<string, string>;
      return {
        name,
        commit: release.commit ?? '',
        committed: release.committed ?? '',
        secretKey: release.SECRET_KEY ?? '',
        token: release.TOKEN ?? '',
        answers: JSON.parse(readFileSync(join(dir, 'answers.json'), 'utf8')) as Record<string, unknown>,
        sql: readFileSync(join(dir, 'store.sql'), 'utf8'),
      };
    })
    .sort((a, b) => a.committed.localeCompare(b.committed));
}

/** Writes the fixture's store into a new SQLite file at `path`, as the release left it. */
export function restoreFixture(fixture: ReleaseFixture, path: string): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(fixture.sql);
  } finally {
    db.close();
  }
}
