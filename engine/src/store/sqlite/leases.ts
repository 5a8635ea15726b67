/**
 * Leases in one table. Every operation is a read-then-write under the write lock (a write of the
 * group commit, group-commit.ts), so two instances on the same file can never both believe they
 * hold a lease.
 */
import type { Lease, LeaseStore } from '../port';
import type { SqliteDb } from './db';
import type { GroupCommit } from './group-commit';

const SCHEMA =
  'CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)';

interface LeaseRow {
  readonly holder: string;
  readonly expiresAt: number;
}

/** The lease store over one database; time is `Date.now()` (milliseconds). */
export function sqliteLeases(db: SqliteDb, group: GroupCommit): LeaseStore {
  db.exec(SCHEMA);
  const read = (name: string): LeaseRow | undefined => {
    const row: unknown = db.prepare('SELECT holder, expires_at FROM leases WHERE name = ?').get(name);
    if (typeof row !== 'object' || row === null) return undefined;
    const r = row as Record<string, unknown>;
    return { holder: String(r.holder), expiresAt: Number(r.expires_at) };
  };
  const write = (name: string, holder: string, ttlMs: number): Lease => {
    const expiresAt = Date.now() + ttlMs;
    db.prepare(
      'INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at',
    ).run(name, holder, expiresAt);
    return { name, holder, expiresAt: new Date(expiresAt) };
  };
  return {
    async acquire(name, holder, ttlMs) {
      return group.run(() => {
        const current = read(name);
        const free = current === undefined || current.holder === holder || current.expiresAt <= Date.now();
        return free ? write(name, holder, ttlMs) : null;
      });
    },
    async renew(name, holder, ttlMs) {
      // Still ours even past expiry as long as nobody took it over.
      return group.run(() => (read(name)?.holder === holder ? write(name, holder, ttlMs) : null));
    },
    async release(name, holder) {
      return group.run(
        () => db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder).changes > 0,
      );
    },
    async live(names) {
      const now = Date.now();
      return names.flatMap((name) => {
        const row = read(name);
        return row === undefined || row.expiresAt <= now
          ? []
          : [{ name, holder: row.holder, expiresAt: new Date(row.expiresAt) }];
      });
    },
  };
}
