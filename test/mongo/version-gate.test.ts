/**
 * No server: the version gate. The real driver talks to a loopback stand-in that answers only the
 * handshake, as a MongoDB of a given wire version would (helpers/handshake-server.ts). A 4.2
 * server (the one the service was first deployed with) or one newer than the driver knows is
 * refused at once, long before the server selection time-out, with one line naming the version
 * found and the versions supported; every call then answers 503 with the same sentence.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ServiceUnavailable } from '../../engine/src/errors';
import {
  describeWireVersion,
  openMongoStore,
  serverInfoOf,
  SUPPORTED_VERSIONS,
  UnsupportedServer,
  unsupportedServer,
} from '../../engine/src/store/mongo';
import { helloReply, startHandshakeServer } from './helpers/handshake-server';

const BIN = join(__dirname, '..', '..', 'packages', 'server', 'bin', 'fleet.cjs');
const run = promisify(execFile);

/** A selection time-out far above what the refusal takes: the answer must not wait for it. */
/** Longer than any test may run: a refusal that comes at all came from the handshake, not from selection. */
const SELECTION_TIMEOUT_MS = 600_000;

describe('a server the driver does not speak is refused at the first heartbeat', () => {
  test.each([
    [
      'MongoDB 4.2 (wire version 8)',
      helloReply(8),
      'the MongoDB server is MongoDB 4.2 (wire version 8): Fleet API needs MongoDB 4.4 or later (wire versions 9 to 29: 4.4 to 9.0); upgrade the server',
    ],
    [
      'MongoDB 3.6 (wire version 6)',
      helloReply(6),
      'the MongoDB server is MongoDB 3.6 (wire version 6): Fleet API needs MongoDB 4.4 or later (wire versions 9 to 29: 4.4 to 9.0); upgrade the server',
    ],
    [
      'a future server that no longer speaks wire version 29',
      helloReply(35, 31),
      'the MongoDB server is a MongoDB release after 9.0 (wire version 31), newer than this Fleet API supports: it needs MongoDB 4.4 or later (wire versions 9 to 29: 4.4 to 9.0); upgrade Fleet API',
    ],
  ])('%s', async (_label, hello, message) => {
    const peer = await startHandshakeServer(hello);
    const store = await openMongoStore({ url: peer.url, serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS });
    try {
      const start = store.ensureCollection({
        name: 'hosts',
        scalarPaths: {},
        datetimePaths: [],
        indexes: [],
      });
      await expect(start).rejects.toBeInstanceOf(UnsupportedServer);
      await expect(start).rejects.toMatchObject({ status: 503, message });
      expect(message).not.toContain('\n');
      // Every call says the same (a 503 in the error shape, no host named).
      await expect(store.count('hosts', {})).rejects.toMatchObject({ status: 503, message });
      expect(message).not.toContain('127.0.0.1');
    } finally {
      await store.close();
      await peer.close();
    }
  });
});

describe("the driver's refusal in our words", () => {
  const compatibility = (message: string): Error =>
    Object.assign(new Error(message), { name: 'MongoCompatibilityError' });

  test.each([
    // cmap/connect.ts checkSupportedServer (the handshake of a connection).
    [
      'Server at db1:27017 reports maximum wire version 8, but this version of the Node.js Driver requires at least 9 (MongoDB 4.4)',
      'MongoDB 4.2 (wire version 8)',
    ],
    // sdam/topology_description.ts (the topology's view).
    [
      'Server at db1:27017 reports wire version 7, but this version of the driver requires at least 9 (MongoDB 4.4).',
      'MongoDB 4.0 (wire version 7)',
    ],
    [
      'Server at db1:27017 reports minimum wire version "30", but this version of the Node.js Driver requires at most 29 (MongoDB 9.0)',
      'newer than this Fleet API supports',
    ],
    [
      'Server at db1:27017 requires wire version 30, but this version of the driver only supports up to 29 (MongoDB 9.0)',
      'newer than this Fleet API supports',
    ],
  ])('%s', (driverMessage, found) => {
    const refusal = unsupportedServer(compatibility(driverMessage));
    expect(refusal).toBeInstanceOf(ServiceUnavailable);
    expect(refusal?.message).toContain(found);
    expect(refusal?.message).toContain(SUPPORTED_VERSIONS);
    expect(refusal?.message).not.toContain('db1');
  });

  test('any other error is not a refusal', () => {
    expect(unsupportedServer(new Error('connect ECONNREFUSED'))).toBeUndefined();
    expect(unsupportedServer('text')).toBeUndefined();
  });

  test.each([
    [9, 'MongoDB 4.4 (wire version 9)'],
    [14, 'a MongoDB release after 5.0 (wire version 14)'],
    [21, 'MongoDB 7.0 (wire version 21)'],
    [25, 'MongoDB 8.0 (wire version 25)'],
    [3, 'a MongoDB release older than 3.6 (wire version 3)'],
  ])('wire version %d is %s', (wire, words) => {
    expect(describeWireVersion(wire)).toBe(words);
  });
});

describe('the topology, from hello', () => {
  test.each([
    [
      'a standalone server: sessions, no transactions',
      { maxWireVersion: 21, logicalSessionTimeoutMinutes: 30 },
      'standalone',
      false,
    ],
    [
      'a replica set member',
      { maxWireVersion: 21, setName: 'rs0', logicalSessionTimeoutMinutes: 30 },
      'replicaSet',
      true,
    ],
    ['a mongos', { maxWireVersion: 17, msg: 'isdbgrid', logicalSessionTimeoutMinutes: 30 }, 'sharded', true],
    ['a replica set without sessions', { maxWireVersion: 21, setName: 'rs0' }, 'replicaSet', false],
  ] as const)('%s', (_label, hello, topology, transactions) => {
    expect(serverInfoOf(hello)).toMatchObject({ topology, transactions, wireVersion: hello.maxWireVersion });
  });

  test("the version is buildInfo's when known, else the release of the wire version", () => {
    expect(serverInfoOf({ maxWireVersion: 21 }, '7.0.12').version).toBe('7.0.12');
    expect(serverInfoOf({ maxWireVersion: 21 }).version).toBe('7.0');
  });
});

test('a supported server passes the gate; its version and topology are read from the handshake', async () => {
  const peer = await startHandshakeServer(helloReply(21));
  const store = await openMongoStore({ url: peer.url, serverSelectionTimeoutMS: 2000 });
  try {
    await store.ensureCollection({ name: 'hosts', scalarPaths: {}, datetimePaths: [], indexes: [] });
    // The stand-in refuses buildInfo: the version comes from the wire version then.
    await expect(store.server()).resolves.toEqual({
      version: '7.0',
      wireVersion: 21,
      topology: 'standalone',
      transactions: false,
    });
  } finally {
    await store.close();
    await peer.close();
  }
});

test('fleet serve against a 4.2 server stops at once with that one line, exit 1', async () => {
  const peer = await startHandshakeServer(helloReply(8));
  const cwd = mkdtempSync(join(tmpdir(), 'fleet-gate-'));
  try {
    const result = await run(process.execPath, [BIN, 'serve'], {
      cwd,
      env: { ...process.env, DATABASE_URL: peer.url, PORT: '0', LOG_LEVEL: 'silent' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(result).toEqual({
      code: 1,
      stderr:
        'fleet-api failed to start: the MongoDB server is MongoDB 4.2 (wire version 8): Fleet API needs MongoDB 4.4 or later (wire versions 9 to 29: 4.4 to 9.0); upgrade the server\n',
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    await peer.close();
  }
}, 60_000);
