/**
 * The compiled serializer (engine/src/http/item-json.ts) writes the very text of
 * `JSON.stringify(renderItem(...))` / `renderWrite(...)` (serialize.ts, the one definition of an
 * item): over every resource (seeded items and a sample item of each), in list, item and write
 * mode, without and with projections, and over the edge values a stored document can hold
 * (secrets set and null, nested dates, embedded items, media ids, undefined and missing fields).
 */
import {
  createEngine,
  createSecretBox,
  systemContext,
  type CompiledResource,
  type Doc,
  type Engine,
  type Store,
} from '../../engine/src';
import { itemJson, type TextMode } from '../../engine/src/http/item-json';
import { renderItem, renderMediaWith, renderWrite } from '../../engine/src/http/serialize';
import { openSqliteStore } from '../../engine/src/store/sqlite';
import { allResources, allRouteGroups } from '../../resources';
import { seedFleet } from '../../packages/server/src/seed';
import { createLogger } from '../../packages/server/src/logger';
import { createSample } from '../helpers';

let store: Store;
let engine: Engine;

beforeAll(async () => {
  store = openSqliteStore({ path: ':memory:' });
  engine = createEngine({
    definitions: allResources,
    routeGroups: allRouteGroups,
    store,
    secrets: createSecretBox('item-json-test-key-0123456789'),
    log: createLogger('silent'),
  });
  await engine.ensureCollections();
  await seedFleet(engine.runtime, { hosts: 40, actions: 200, snapshots: 2, seed: 3 });
  // A sample of each resource users create that the seed leaves empty (its references exist: the seed made them).
  for (const res of engine.registry.resources.values()) {
    if (res.def.methods.create !== undefined && (await store.find(res.name, {}, { limit: 1 })).length === 0)
      await createSample(engine, res.name).catch(() => undefined);
  }
  // Two a sample cannot make: a file needs an upload, an organization its VPN server. Stored as they would be.
  const meta = (id: string) => ({
    _id: id,
    _created: new Date(Date.UTC(2030, 0, 1)),
    _updated: new Date(Date.UTC(2030, 0, 2)),
    _etag: `etag-${id}`,
  });
  const [manager] = await store.find('vpn_managers', {}, { limit: 1 });
  await store.insert('files', [
    { ...meta('6500000000000000000000f1'), name: 'firmware.bin', data: '6500000000000000000000d1' },
  ]);
  await store.insert('vpn_organizations', [
    {
      ...meta('6500000000000000000000a1'),
      name: 'org',
      vpn_manager: manager?._id ?? 'none',
      vpnsrv_representation: {
        auth_api: true,
        name: 'org',
        auth_token: 'sealed-token',
        auth_secret: null,
        user_count: 2,
        id: 'x1',
      },
      cipher_type: 'rsa',
      type: 6,
      unreachable: false,
    },
  ]);
});
afterAll(async () => {
  await store.close();
});

const MODES: readonly TextMode[] = ['list', 'item', 'write'];

function expected(
  res: CompiledResource,
  doc: Doc,
  mode: TextMode,
  projection?: Record<string, 0 | 1>,
): string {
  if (mode === 'write') return JSON.stringify(renderWrite(res, doc, engine.registry));
  return JSON.stringify(
    renderItem(res, doc, { mode, registry: engine.registry, ...(projection ? { projection } : {}) }),
  );
}

function expectSameText(res: CompiledResource, doc: Doc, projection?: Record<string, 0 | 1>): void {
  for (const mode of MODES) {
    if (projection && mode === 'write') continue;
    const got = itemJson(res, doc, {
      mode,
      registry: engine.registry,
      ...(projection ? { projection } : {}),
    });
    expect({ resource: res.name, id: doc._id, mode, projection, text: got }).toEqual({
      resource: res.name,
      id: doc._id,
      mode,
      projection,
      text: expected(res, doc, mode, projection),
    });
  }
}

async function storedDocs(res: CompiledResource, limit = 8): Promise<Doc[]> {
  return store.find(res.name, {}, { limit });
}

describe('item JSON text equals the rendered item', () => {
  it('covers every resource, with at least one stored item each', async () => {
    const empty: string[] = [];
    for (const res of engine.registry.resources.values()) {
      const docs = await storedDocs(res);
      if (docs.length === 0) empty.push(res.name);
      for (const doc of docs) expectSameText(res, doc);
    }
    // Resources only the service writes (no create route) may have no sample; the rest must.
    expect(empty.filter((name) => engine.registry.get(name).def.methods.create !== undefined)).toEqual([]);
  });

  it('with inclusive and exclusive projections, meta fields and dotted paths', async () => {
    for (const res of engine.registry.resources.values()) {
      const [first, second] = res.storedFields;
      for (const doc of await storedDocs(res, 3)) {
        if (first !== undefined) expectSameText(res, doc, { [first]: 1 });
        if (first !== undefined && second !== undefined)
          expectSameText(res, doc, { [first]: 0, [second]: 0 });
      }
    }
    const hosts = engine.registry.get('hosts');
    for (const doc of await storedDocs(hosts, 3)) {
      expectSameText(hosts, doc, { 'grain.cpu_model': 1, status: 1 });
      expectSameText(hosts, doc, { 'grain.gpus': 0 });
      expectSameText(hosts, doc, { grain: 1 });
    }
  });

  it('masks secrets, renders nested dates and keeps nulls, missing and undefined fields as JSON does', async () => {
    const hosts = engine.registry.get('hosts');
    const [host] = await storedDocs(hosts, 1);
    if (!host) throw new Error('no seeded host');
    const account = {
      name: 'h',
      otp_secret: 'sealed-otp',
      groups: ['a'],
      port_forwarding: [{ at: new Date(Date.UTC(2030, 1, 2)) }],
    };
    const variants: Doc[] = [
      { ...host, vpnsrv_representation: account },
      { ...host, vpnsrv_representation: { ...account, otp_secret: null } },
      {
        ...host,
        vpnsrv_representation: null,
        fingerprint_history: [{ added: new Date(Date.UTC(2031, 4, 5, 6, 7, 8)), fingerprint: 'ab"c' }],
      },
      {
        ...host,
        heartbeat: undefined,
        last_stateapply: null,
        identification_number: 'line\u2028break "quoted" \\ é',
      },
      Object.fromEntries(Object.entries(host).filter(([k]) => k !== 'status' && k !== '_etag')) as Doc,
    ];
    for (const doc of variants) expectSameText(hosts, doc);
    const managers = engine.registry.get('vpn_managers');
    for (const doc of await storedDocs(managers)) {
      expectSameText(managers, doc);
      expectSameText(managers, { ...doc, password: null });
    }
  });

  it('renders embedded items, dangling references and media links', async () => {
    const hosts = engine.registry.get('hosts');
    const nodegroups = await store.find('nodegroups', {}, { limit: 2 });
    const [host] = await storedDocs(hosts, 1);
    if (!host) throw new Error('no seeded host');
    expectSameText(hosts, { ...host, nodegroups: nodegroups, groups: [], last_action: null });
    expectSameText(hosts, {
      ...host,
      nodegroups: [nodegroups[0], 'plain-id', null] as unknown[],
      vpn_organization: 'org-1',
    });
    const files = engine.registry.get('files');
    const [file] = await storedDocs(files, 1);
    const fileDoc: Doc = file ?? {
      _id: 'f1',
      name: 'x',
      _created: new Date(0),
      _updated: new Date(0),
      _etag: 'e',
    };
    expectSameText(files, { ...fileDoc, data: 'media-id-1' });
    renderMediaWith(engine.registry, (id) => `/api/media/${id}?expires=1&signature=s`);
    expectSameText(files, { ...fileDoc, data: 'media-id-2' });
    expectSameText(files, { ...fileDoc, data: null });
  });

  it('reads back what the local API returns, secrets masked there too', async () => {
    const ctx = systemContext(engine.runtime);
    for (const res of engine.registry.resources.values()) {
      if (res.def.methods.list === undefined) continue;
      const page = await engine.runtime.resources.get(res.name).list({ page: 1, maxResults: 5 }, ctx);
      for (const item of page.items) expectSameText(res, item);
    }
  });
});
