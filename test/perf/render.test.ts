/**
 * The renderer's two outputs of one field plan (engine/src/http/render): the text written straight
 * from the stored document is the JSON of the rendered object, over every resource (seeded items
 * and a sample item of each), in list, item, embedded and write mode, without and with
 * projections, and over the edge values a stored document can hold (nested dates, embedded items,
 * dangling references, media ids, undefined and missing fields); and what the object holds: RFC
 * 1123 dates, media links, embedded items, related links, the write answer's shape.
 */
import {
  createEngine,
  createSecretBox,
  MASK,
  systemContext,
  type CompiledResource,
  type Doc,
  type Engine,
  type Store,
} from '../../engine/src';
import { renderMediaWith, renderObject, renderText, type RenderMode } from '../../engine/src/http/render';
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
    secrets: createSecretBox('render-test-key-0123456789'),
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

const MODES: readonly RenderMode[] = ['list', 'item', 'embedded', 'write'];

/** Renders `doc` in every mode both ways; resolves the objects by mode. */
function expectSameText(
  res: CompiledResource,
  doc: Doc,
  projection?: Record<string, 0 | 1>,
): Map<RenderMode, Record<string, unknown>> {
  const objects = new Map<RenderMode, Record<string, unknown>>();
  for (const mode of MODES) {
    const o = { mode, registry: engine.registry, ...(projection ? { projection } : {}) };
    const object = renderObject(res, doc, o);
    const text = renderText(res, doc, o);
    expect({ resource: res.name, id: doc._id, mode, projection, text }).toEqual({
      resource: res.name,
      id: doc._id,
      mode,
      projection,
      text: JSON.stringify(object),
    });
    objects.set(mode, object);
  }
  return objects;
}

async function storedDocs(res: CompiledResource, limit = 8): Promise<Doc[]> {
  return store.find(res.name, {}, { limit });
}

describe('the text and the object of one plan are the same item', () => {
  it('covers every resource, with at least one stored item each', async () => {
    const empty: string[] = [];
    for (const res of engine.registry.resources.values()) {
      const docs = await storedDocs(res);
      if (docs.length === 0) empty.push(res.name);
      for (const doc of docs) {
        expectSameText(res, doc);
        // Written once more and then taken from the texts already written (same plan, id, etag).
        const o = { mode: 'list', registry: engine.registry, reuse: true } as const;
        const text = renderText(res, doc, o);
        expect(renderText(res, doc, o)).toBe(text);
        expect(text).toBe(JSON.stringify(renderObject(res, doc, o)));
      }
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

  it('renders nested dates and keeps nulls, missing and undefined fields as JSON does', async () => {
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
    const rendered = variants.map((doc) => expectSameText(hosts, doc).get('item'));
    // Secrets are written as the local API gives them (it masks them: secrets/view.ts).
    expect(rendered[0]?.vpnsrv_representation).toMatchObject({ name: 'h', otp_secret: 'sealed-otp' });
    expect(rendered[2]?.fingerprint_history).toEqual([
      { added: 'Mon, 05 May 2031 06:07:08 GMT', fingerprint: 'ab"c' },
    ]);
    expect(rendered[3]).not.toHaveProperty('heartbeat');
    expect(rendered[3]).toMatchObject({ last_stateapply: null });
    expect(rendered[4]).not.toHaveProperty('status');
    expect(rendered[4]).not.toHaveProperty('_etag');
    const write = expectSameText(hosts, host).get('write');
    expect(Object.keys(write ?? {})).toEqual(['_id', '_created', '_updated', '_etag', '_links', '_status']);
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
    const embedded = expectSameText(hosts, { ...host, nodegroups, groups: [], last_action: null }).get(
      'item',
    );
    const first = (embedded?.nodegroups as Record<string, unknown>[] | undefined)?.[0];
    expect(first).toMatchObject({ _id: nodegroups[0]?._id, _created: expect.stringMatching(/ GMT$/) });
    expect(first).not.toHaveProperty('_links');
    const links = embedded?._links as Record<string, unknown>;
    expect(links).toMatchObject({ parent: { title: 'home', href: '/' }, collection: { href: 'hosts' } });
    expect((links.related as Record<string, unknown[]>).nodegroups).toHaveLength(nodegroups.length);
    const dangling = expectSameText(hosts, {
      ...host,
      nodegroups: [nodegroups[0], 'plain-id', null] as unknown[],
      vpn_organization: 'org-1',
    }).get('list');
    expect((dangling?.nodegroups as unknown[]).slice(1)).toEqual(['plain-id', null]);
    expect(dangling?._links).toMatchObject({
      related: { vpn_organization: { href: 'vpn_organizations/org-1' } },
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
    expect(expectSameText(files, { ...fileDoc, data: 'media-id-1' }).get('item')?.data).toBe(
      '/api/media/media-id-1',
    );
    renderMediaWith(engine.registry, (id) => `/api/media/${id}?expires=1&signature=s`);
    expect(expectSameText(files, { ...fileDoc, data: 'media-id-2' }).get('list')?.data).toBe(
      '/api/media/media-id-2?expires=1&signature=s',
    );
    expectSameText(files, { ...fileDoc, data: null });
  });

  it('reads back what the local API returns, secrets masked there too', async () => {
    const ctx = systemContext(engine.runtime);
    for (const res of engine.registry.resources.values()) {
      if (res.def.methods.list === undefined) continue;
      const page = await engine.runtime.resources.get(res.name).list({ page: 1, maxResults: 5 }, ctx);
      for (const item of page.items) expectSameText(res, item);
    }
    const [manager] = (
      await engine.runtime.resources.get('vpn_managers').list({ page: 1, maxResults: 1 }, ctx)
    ).items;
    if (!manager) throw new Error('no VPN manager');
    expect(
      renderObject(engine.registry.get('vpn_managers'), manager, { mode: 'item', registry: engine.registry }),
    ).toMatchObject({ password: MASK });
  });
});
