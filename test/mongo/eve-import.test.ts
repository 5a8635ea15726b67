/**
 * No server: `fleet import` from the original application's database, as `mongodump` and
 * `mongoexport` write it (helpers/eve-fixture.ts), into an embedded store: ObjectId ids and
 * references become 24-hex ids, Eve's `_created` / `_updated` are kept and its `_etag` replaced,
 * the GridFS file becomes media with its bytes and type, a soft-deleted host stays hidden, secrets
 * are sealed, the VPN records are adopted (no VPN server is called), the settings item takes the
 * original's values, and a second run adds nothing. The live counterpart (from a running database
 * into MongoDB) is test/contract/mongo-import.contract.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { systemContext, type Doc } from '../../engine/src';
import { MASK } from '../../engine/src/secrets';
import { withEngine } from '../../packages/server/src/cli/engine';
import { formatReport, importCommand } from '../../packages/server/src/cli/import';
import { emptyReport } from '../../packages/server/src/cli/import-run';
import { ConfigError } from '../../packages/server/src/config';
import { eveCollections, FILE_BYTES, IDS, writeDump, writeExport } from './helpers/eve-fixture';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-import-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The CLI's environment for a fresh SQLite store. */
function envFor(dir: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: `sqlite:${join(dir, 'data', 'fleet.db')}`,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'k'.repeat(64),
  };
}

/** Reads what the import left, through the local API as the system principal. */
async function readBack(env: NodeJS.ProcessEnv) {
  return withEngine(env, async ({ engine }) => {
    const ctx = systemContext(engine.runtime);
    const all = async (name: string): Promise<Doc[]> =>
      engine.runtime.resources.get(name).find({ showDeleted: true, view: 'item' }, ctx);
    const [file] = await all('files');
    const media = file && typeof file.data === 'string' ? await engine.runtime.media.open(file.data) : null;
    const chunks: Buffer[] = [];
    if (media) for await (const chunk of media.stream) chunks.push(chunk as Buffer);
    return {
      hosts: await all('hosts'),
      groups: await all('groups'),
      managers: await all('vpn_managers'),
      organizations: await all('vpn_organizations'),
      settings: await all('settings'),
      alerts: await all('alerts'),
      file,
      media: media ? { info: media.info, bytes: Buffer.concat(chunks) } : null,
      visibleHosts: (await engine.runtime.resources.get('hosts').find({}, ctx)).map((h) => h._id),
    };
  });
}

describe.each([
  ['a mongodump directory (BSON)', (dir: string) => writeDump(dir)],
  ['a mongoexport directory (Extended JSON lines)', (dir: string) => writeExport(dir)],
  ['a mongoexport directory (--jsonArray)', (dir: string) => writeExport(dir, { arrays: true })],
])('from %s', (_label, write) => {
  const dir = tempDir();
  const source = join(dir, 'eve');
  const env = envFor(dir);
  let first = '';
  let back: Awaited<ReturnType<typeof readBack>>;
  beforeAll(async () => {
    write(source);
    first = (await importCommand(['--from', source], env)).stdout;
    back = await readBack(env);
  });

  test('every collection is counted, and what is not a resource here is named', () => {
    expect(first).toMatch(/^ {2}hosts +2 +2 +0 +0 +1 +0 +0$/m);
    expect(first).toMatch(/^ {2}groups +2 +2 +0/m);
    expect(first).toMatch(/^ {2}files +1 +1 +0 +0 +0 +1 +0$/m);
    expect(first).toMatch(/^ {2}settings +1 +0 +0 +1 /m);
    expect(first).toContain('Not imported (no resource of that name here): oplog');
  });

  test("ObjectId ids and references are 24-hex ids; dates are kept; Eve's etag is not", () => {
    const web1 = back.hosts.find((h) => h._id === 'web1.example.net');
    expect(web1).toMatchObject({
      groups: [IDS.childGroup],
      vpn_organization: IDS.organization,
      nodegroups: ['web'],
      heartbeat: new Date('2021-04-05T12:00:00Z'),
      _created: new Date('2021-01-10T08:00:00Z'),
      _updated: new Date('2021-04-05T12:00:00Z'),
    });
    expect(web1?._etag).toMatch(/^[0-9a-f]+$/);
    expect(web1?._etag).not.toBe('a94a8fe5ccb19ba61c4c0873d391e987982fbbd3');
    expect(back.groups.map((g) => [g._id, g.subgroups])).toEqual(
      expect.arrayContaining([
        [IDS.parentGroup, [IDS.childGroup]],
        [IDS.childGroup, []],
      ]),
    );
    expect(back.alerts).toEqual([
      expect.objectContaining({ _id: IDS.alert, _created: new Date('2021-04-06T09:00:00Z') }),
    ]);
  });

  test('the soft-deleted host is there, hidden', () => {
    expect(back.visibleHosts).toEqual(['web1.example.net']);
    expect(back.hosts.find((h) => h._id === 'old.example.net')).toMatchObject({ _soft_deleted: true });
  });

  test('secrets are sealed, as any write seals them', () => {
    expect(back.managers[0]?.password).toBe(MASK);
    const web1 = back.hosts.find((h) => h._id === 'web1.example.net');
    expect((web1?.vpnsrv_representation as { otp_secret?: string } | undefined)?.otp_secret).toBe(MASK);
  });

  test('the VPN records the original stored are adopted as they were (64-bit integers as numbers)', () => {
    expect(back.organizations[0]?.vpnsrv_representation).toMatchObject({ id: 'org-1', user_count: 1 });
    expect(back.hosts.find((h) => h._id === 'web1.example.net')?.vpnsrv_representation).toMatchObject({
      id: 'user-1',
      organization: 'org-1',
    });
  });

  test('the GridFS file is media with its bytes, name and type; the item points at it', () => {
    expect(back.file?.data).toMatch(/^[0-9a-f]{24}$/);
    expect(back.file?.data).not.toBe(IDS.file);
    expect(back.media?.info).toMatchObject({
      filename: 'inventory.csv',
      contentType: 'text/csv',
      length: FILE_BYTES.length,
    });
    expect(back.media?.bytes.equals(FILE_BYTES)).toBe(true);
  });

  test("the settings item takes the original's values", () => {
    expect(back.settings[0]?.addresses).toEqual({
      resolver_address: '',
      master_address: 'salt.example.net',
      file: IDS.fileItem,
    });
  });

  test('a second run adds nothing and copies no file again', async () => {
    const again = (await importCommand(['--from', source], env)).stdout;
    expect(again).toMatch(/^ {2}hosts +2 +0 +2 +0 +0 +0 +0$/m);
    expect(again).toMatch(/^ {2}files +1 +0 +1 +0 +0 +0 +0$/m);
    expect((await readBack(env)).hosts).toHaveLength(2);
  });
});

describe('documents the API cannot hold', () => {
  const collections = (): ReturnType<typeof eveCollections> => {
    const all = eveCollections();
    all.hosts?.push({ _id: 'extra.example.net', status: 'up', key: 'accepted', rack: 'B7' });
    all.alerts?.push({
      _id: 'binary',
      type: 'x',
      payload: { blob: new mongoose.mongo.Binary(Buffer.from('x')) },
    });
    return all;
  };

  test('are refused with the reason, the rest imported, exit status 1', async () => {
    const dir = tempDir();
    writeDump(join(dir, 'eve'), collections());
    const run = importCommand(
      [
        '--from',
        join(dir, 'eve'),
        '--only',
        'hosts,alerts,groups,nodegroups,vpn_managers,vpn_organizations,actions',
      ],
      envFor(dir),
    );
    await expect(run).rejects.toBeInstanceOf(ConfigError);
    const report = await run.catch((error: Error) => error.message);
    expect(report).toMatch(/^ {2}hosts +3 +2 +0 +0 +1 +0 +1$/m);
    expect(report).toContain('Refused in hosts (1):\n  "extra.example.net": ');
    expect(report).toContain('rack');
    expect(report).toContain(
      'Refused in alerts (1):\n  "binary": payload.blob: binary data cannot be imported',
    );
    expect((await readBack(envFor(dir))).hosts.map((h) => h._id).sort()).toEqual([
      'old.example.net',
      'web1.example.net',
    ]);
  });

  test('with --drop-unknown, unknown top-level fields are left out and named', async () => {
    const dir = tempDir();
    writeDump(join(dir, 'eve'), collections());
    const out = await importCommand(
      [
        '--from',
        join(dir, 'eve'),
        '--drop-unknown',
        '--only',
        'hosts,groups,nodegroups,vpn_managers,vpn_organizations,actions',
      ],
      envFor(dir),
    );
    expect(out.stdout).toContain('Left out (--drop-unknown): hosts.rack');
    expect((await readBack(envFor(dir))).hosts).toHaveLength(3);
  });
});

describe('the command line', () => {
  test.each([
    [[], '--from is required'],
    [['--from'], 'argument missing'],
    [['--from', '/nonexistent/eve'], 'is neither a mongodb:// URL nor a directory'],
    [['--from', 'x', 'y'], 'unexpected argument "y"'],
  ])('%j is refused: %s', async (argv, message) => {
    await expect(importCommand(argv, envFor(tempDir()))).rejects.toThrow(message);
  });

  test('a directory without dump or export files says what it expects', async () => {
    await expect(importCommand(['--from', tempDir()], envFor(tempDir()))).rejects.toThrow(
      'has no <collection>.bson (mongodump) or <collection>.json (mongoexport) files',
    );
  });

  test('the report names the counts in columns', () => {
    const report = formatReport('src', [{ ...emptyReport('hosts'), read: 3, created: 2, present: 1 }], []);
    expect(report).toBe(
      'Imported from src:\n  collection     read  created  present  updated   hidden    files  refused\n  hosts             3        2        1        0        0        0        0\n',
    );
  });
});
