/** What the upgrade tests share: a server of this release on a given store, its reads, and what may differ from an earlier release's answers. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { allMigrations } from '../../resources';
import { startServer, type RunningServer } from '../../packages/server/src/boot';
import { loadConfig } from '../../packages/server/src/config';
import { createLogger } from '../../packages/server/src/logger';
import type { ReleaseFixture } from './fixtures';

/** The newest schema this release knows. */
export const NEWEST = allMigrations.length;

/** A server of this release on `databaseUrl` (data dir `dir`), its log lines kept. */
export async function serve(
  fixture: Pick<ReleaseFixture, 'secretKey' | 'token'>,
  databaseUrl: string,
  dir: string,
): Promise<{ server: RunningServer; lines: () => Record<string, unknown>[] }> {
  const raw: string[] = [];
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: fixture.secretKey,
    API_TOKENS: `fixture=${fixture.token}:admin`,
    LOG_LEVEL: 'info',
    // The snapshot loop stays out of the answers: the fixture's snapshots are the history.
    SNAPSHOT_INTERVAL_S: '86400',
  });
  const log = createLogger('info', { write: (line: string) => void raw.push(line) });
  const server = await startServer(config, { log, cwd: dir });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { server, lines };
}

/** GET `path` with the fixture's token: 200 and its body. */
export async function get(server: RunningServer, token: string, path: string): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.json();
}

/**
 * What may differ from the release's answer: signed media links carry a fresh expiry and
 * signature (and, on a copied store, another media id), and a converted snapshot item is a new
 * version of itself (its host list moved into the history): its `_etag` and `_updated` change.
 */
export function comparable(path: string, body: unknown): unknown {
  const text = JSON.stringify(body).replace(
    /\/api\/media\/[0-9a-f]+(\?expires=\d+&signature=[\w-]+)?/g,
    '/api/media/<id>',
  );
  const value = JSON.parse(text) as {
    _items?: Record<string, unknown>[];
    _links?: Record<string, { href?: string }>;
  };
  if (path.startsWith('/api/hosts_statistic') && Array.isArray(value._items))
    value._items = value._items.map(({ _etag: _e, _updated: _u, ...rest }) => rest);
  // Deliberate changes since the fixtures' releases: links are percent-encoded (compared decoded),
  // and an empty page's `self` keeps its query (compared without it).
  for (const [rel, link] of Object.entries(value._links ?? {})) {
    if (typeof link.href !== 'string') continue;
    link.href = decodeURIComponent(link.href);
    if (rel === 'self' && value._items?.length === 0) link.href = link.href.replace(/\?.*$/, '');
  }
  return value;
}

/** Every read of the fixture answers, after the upgrade, what its release answered. */
export async function expectSameAnswers(server: RunningServer, fixture: ReleaseFixture): Promise<void> {
  for (const [path, answer] of Object.entries(fixture.answers))
    expect({ path, body: comparable(path, await get(server, fixture.token, path)) }).toEqual({
      path,
      body: comparable(path, answer),
    });
}

/** `<migration>: <message>` of each migration's log line. */
export const migrationLines = (lines: Record<string, unknown>[]): string[] =>
  lines.filter((l) => typeof l.migration === 'string').map((l) => `${String(l.migration)}: ${String(l.msg)}`);

/** Snapshot items of a SQLite file still carrying their whole host list (as the first release stored them). */
export function wholeSnapshots(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db
      .prepare("SELECT count(*) AS n FROM c_hosts_statistic WHERE json_array_length(doc, '$.hosts') > 0")
      .get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** PATCHes the first host (by id) with If-Match; resolves the status. */
export async function patchFirstHost(server: RunningServer, token: string, fields: object): Promise<number> {
  const hosts = (await get(server, token, '/api/hosts?sort=_id&max_results=1')) as {
    _items: { _id: string; _etag: string }[];
  };
  const host = hosts._items[0];
  if (host === undefined) throw new Error('the fixture has no host');
  const res = await fetch(`${server.url}/api/hosts/${host._id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'if-match': host._etag },
    body: JSON.stringify(fields),
  });
  return res.status;
}

/** The data dir beside a SQLite file. */
export const dirOf = (dbPath: string): string => join(dbPath, '..');
