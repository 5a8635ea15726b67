/**
 * The durability claim: a write that answered 2xx survives `kill -9` of the server. The real CLI
 * runs as a child process on a SQLite file; it is sent SIGKILL right after the 2xx, and a new
 * process on the same file must serve what was written.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKENS } from '../helpers';
import { killGroup, startChildServer, stopChild, type ChildServer } from './resources/_support';

let dir: string;
let env: Record<string, string>;
const running: ChildServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fleet-durability-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'fleet.db')}`, API_TOKENS: `${TOKENS.admin}:admin` };
});
afterEach(async () => {
  for (const server of running.splice(0)) await stopChild(server);
  rmSync(dir, { recursive: true, force: true });
});

const headers = { Authorization: `Bearer ${TOKENS.admin}` };

async function start(): Promise<ChildServer> {
  const server = await startChildServer({ env });
  running.push(server);
  return server;
}

async function kill9(server: ChildServer): Promise<void> {
  killGroup(server.child, 'SIGKILL');
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
}

describe('kill -9 right after a 2xx write', () => {
  it('keeps a created group', async () => {
    const first = await start();
    const res = await fetch(`${first.url}/api/groups`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'survivor', type: 1, info: { regex: 'web-' } }),
    });
    expect(res.status).toBe(201);
    const { _id: id } = (await res.json()) as { _id: string };
    await kill9(first);

    const second = await start();
    const got = await fetch(`${second.url}/api/groups/${id}`, { headers });
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ _id: id, name: 'survivor', type: 1, info: { regex: 'web-' } });
  });

  it('keeps every write that answered before the kill, under concurrent load', async () => {
    const first = await start();
    const acknowledged: string[] = [];
    let killed: Promise<void> | undefined;
    const posts = Array.from({ length: 20 }, (_, i) =>
      fetch(`${first.url}/api/groups`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `load-${i}` }),
      }).then(
        async (res) => {
          if (res.status !== 201) return;
          acknowledged.push(((await res.json()) as { _id: string })._id);
          // The kill follows the fifth acknowledgement; later requests may never be answered.
          if (acknowledged.length === 5) killed = kill9(first);
        },
        () => undefined,
      ),
    );
    await Promise.all(posts);
    await (killed ?? kill9(first));
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);

    const second = await start();
    for (const id of acknowledged) {
      const got = await fetch(`${second.url}/api/groups/${id}`, { headers });
      expect({ id, status: got.status }).toEqual({ id, status: 200 });
    }
  });

  it('keeps an uploaded file`s bytes and a settings change', async () => {
    const first = await start();
    const bytes = randomBytes(600 * 1024);
    const form = new FormData();
    form.append('name', 'firmware.bin');
    form.append('data', new Blob([bytes], { type: 'application/octet-stream' }), 'firmware.bin');
    const patched = await fetch(`${first.url}/api/settings/0`, {
      method: 'PATCH',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ addresses: { resolver_address: 'http://resolver.fleet.test' } }),
    });
    expect(patched.status).toBe(200);
    const uploaded = await fetch(`${first.url}/api/files`, { method: 'POST', headers, body: form });
    expect(uploaded.status).toBe(201);
    const { _id: id } = (await uploaded.json()) as { _id: string };
    await kill9(first);

    const second = await start();
    const item = (await (await fetch(`${second.url}/api/files/${id}`, { headers })).json()) as {
      data: string;
    };
    const media = await fetch(`${second.url}${item.data}`, { headers });
    expect(media.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await media.arrayBuffer()), bytes)).toBe(0);
    const settings = await (await fetch(`${second.url}/api/settings/0`, { headers })).json();
    expect(settings).toMatchObject({ addresses: { resolver_address: 'http://resolver.fleet.test' } });
  });
});
