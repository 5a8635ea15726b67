/**
 * The reads every served resource answers, as the generic tests check them (every-resource.test.ts,
 * and any test that adds a resource of its own): the collection GET's envelope, the item GET's
 * fields, dates, links and ETag, 401 without a token and 404 for an unknown id. Each resource is
 * set up in its own `beforeAll`, so a resource whose sample cannot be made fails alone.
 */
import { formatHttpDate, MASK, type CompiledResource } from '../../../engine/src';
import {
  auth,
  createSample,
  expectEnvelope,
  expectEveError,
  RFC1123,
  uniqueName,
  type TestServer,
} from '../../helpers';
import { q } from './_support';

/** How one resource's item is made and what it must read back as. */
export interface ReadCase {
  /** Inserts the fixture; returns its id. */
  insert(): Promise<string>;
  /** Spec fields the item must carry (values checked with toMatchObject). */
  fields(id: string): Record<string, unknown>;
  /** `_links.related` the item must carry. */
  related?(id: string): Record<string, unknown>;
  /** Title of `_links.self`. */
  title: string;
}

/** What a sample's data reads back as: dates in RFC 1123, secrets masked. */
function rendered(res: CompiledResource, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    if (name === '_id') continue;
    out[name] = value instanceof Date ? formatHttpDate(value) : res.def.fields[name]?.secret ? MASK : value;
  }
  return out;
}

/** The case of a resource the spec does not list: a sample made from its definition. */
export function sampleCase(server: () => TestServer, name: string): ReadCase {
  let data: Record<string, unknown> = {};
  const res = () => server().engine.registry.get(name);
  return {
    title: '',
    insert: async () => {
      const made = await createSample(server().engine, name);
      data = made.data;
      return made.id;
    },
    fields: () => rendered(res(), data),
    related: () => {
      const links: Record<string, unknown> = {};
      for (const rel of res().relations) {
        const value = data[rel.field];
        const title = server().engine.registry.get(rel.to).itemTitle;
        if (typeof value === 'string') links[rel.field] = { title, href: `${rel.to}/${value}` };
        if (Array.isArray(value) && value.length > 0)
          links[rel.field] = value.map((v) => ({ title, href: `${rel.to}/${String(v)}` }));
      }
      return links;
    },
  };
}

/** The read tests of resource `name` on the server `server()`, its item made by `case`. */
export function describeReads(name: string, o: { server: () => TestServer; case: ReadCase }): void {
  const c = o.case;
  let id = '';
  beforeAll(async () => {
    id = await c.insert();
  });
  const title = (): string => c.title || o.server().engine.registry.get(name).itemTitle;
  it('collection GET answers the envelope with the item and its self link', async () => {
    const res = await o
      .server()
      .request.get(`/api/${name}?where=${q({ _id: id })}`)
      .set(auth('viewer'));
    const page = expectEnvelope(res, { page: 1, maxResults: 25, total: 1 });
    // Eve repeats the query in the links; here each value percent-encoded, so the link decodes to it.
    expect(page._links.self.title).toBe(name);
    const self = new URL(page._links.self.href, 'http://api.test/api/');
    expect(self.pathname).toBe(`/api/${name}`);
    expect([...self.searchParams]).toEqual([['where', JSON.stringify({ _id: id })]]);
    const item = page._items[0] as Record<string, unknown>;
    expect(item).toMatchObject({ _id: id, _links: { self: { title: title(), href: `${name}/${id}` } } });
    expect(item._links).not.toHaveProperty('parent');
    expect(item._created).toMatch(RFC1123);
    expect(item._updated).toMatch(RFC1123);
  });

  it('item GET answers the spec fields, dates, links and an ETag', async () => {
    const res = await o.server().request.get(`/api/${name}/${id}`).set(auth('viewer'));
    expect(res.status).toBe(200);
    const item = res.body as Record<string, unknown>;
    expect(item).toMatchObject({ _id: id, ...c.fields(id) });
    expect(item._created).toMatch(RFC1123);
    expect(item._updated).toMatch(RFC1123);
    expect(res.headers.etag).toBe(`"${String(item._etag)}"`);
    const related = c.related ? c.related(id) : {};
    expect(item._links).toEqual({
      self: { title: title(), href: `${name}/${id}` },
      parent: { title: 'home', href: '/' },
      collection: { title: name, href: name },
      ...(Object.keys(related).length > 0 ? { related } : {}),
    });
  });

  it('answers 401 without a token and 404 for an unknown id', async () => {
    expectEveError(await o.server().request.get(`/api/${name}`), 401);
    expectEveError(
      await o
        .server()
        .request.get(`/api/${name}/${uniqueName('missing')}`)
        .set(auth('viewer')),
      404,
    );
  });
}
