/**
 * The store contract on the embedded adapter (a real file and ':memory:'), plus what only SQLite
 * has: durability across kill -9, push-down visible in EXPLAIN QUERY PLAN, several processes on
 * one file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { runStoreContract } from './store-contract';

const dirs: string[] = [];
/** A fresh temp directory, removed after all tests. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-sqlite-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

runStoreContract('sqlite file', async () => openSqliteStore({ path: join(tempDir(), 'fleet.db') }));
runStoreContract('sqlite :memory:', async () => openSqliteStore({ path: ':memory:' }));
