/**
 * Page links are URLs: followed exactly as given (no re-encoding by the caller), a link whose
 * `where` holds `+`, `&`, `#`, `%` and spaces answers the next page of the same query, and every
 * href decodes to the query that was asked, in the order the links keep.
 */
import { auth, insertHosts, startTestServer, TOKENS, uniqueName, type TestServer } from '../helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

interface Page {
  _items: { _id: string }[];
  _links: Record<string, { href: string } | undefined>;
  _meta: { total: number };
}

/** Follows an href relative to /api as a browser would: the text as given, no encoding added. */
async function follow(href: string): Promise<Page> {
  const res = await fetch(`${s.url}/api/${href}`, { headers: { Authorization: `Bearer ${TOKENS.viewer}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

test('a where with +, &, # and % in a $regex: every page followed by its next link, none lost', async () => {
  const tag = `${uniqueName('a+b&c#d%e f')}`;
  const { docs } = await insertHosts(s.store, 5, { tag, prefix: uniqueName('enc') });
  await insertHosts(s.store, 2, { tag: `${tag.replace('+', '')}` });
  const where = JSON.stringify({ identification_number: { $regex: `^${tag.replace(/[+]/g, '\\+')}$` } });
  const first = await s.request
    .get('/api/hosts')
    .query({ where, max_results: 2, sort: '-_id' })
    .set(auth('viewer'));
  expect(first.status).toBe(200);
  expect(first.body._meta.total).toBe(5);
  const seen: string[] = first.body._items.map((i: { _id: string }) => i._id);
  let next = (first.body as Page)._links.next?.href;
  while (next !== undefined) {
    expect(next).not.toMatch(/[#\s"{}]|\+|&(?!(max_results|where|sort|page)=)/);
    const page = await follow(next);
    expect(page._meta.total).toBe(5);
    seen.push(...page._items.map((i) => i._id));
    next = page._links.next?.href;
  }
  expect(seen).toEqual(
    docs
      .map((d) => d._id)
      .sort()
      .reverse(),
  );
});

test('an href decodes to the query asked, in the links order; self repeats it on an empty page', async () => {
  const where = JSON.stringify({ identification_number: 'no one & "nobody" #1 + 100%' });
  const res = await s.request
    .get('/api/hosts')
    .query({ show_soft_deleted: '1', sort: 'ip,-_id', where, max_results: '3' })
    .set(auth('viewer'));
  expect(res.body._meta.total).toBe(0);
  const href: string = res.body._links.self.href;
  const url = new URL(href, 'http://api.test/api/');
  expect([...url.searchParams]).toEqual([
    ['max_results', '3'],
    ['where', where],
    ['sort', 'ip,-_id'],
    ['show_soft_deleted', '1'],
  ]);
  expect(await follow(href)).toMatchObject({ _items: [], _meta: { total: 0 } });
});
