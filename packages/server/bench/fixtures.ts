/** The ids the scenarios need, asked of the running servers through the API. */
import type { Fixtures } from './scenarios';

async function getJson(url: string, token: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The `_items` of a page, as records. */
function items(page: unknown): Array<Record<string, unknown>> {
  const list = typeof page === 'object' && page !== null && '_items' in page ? page._items : undefined;
  return Array.isArray(list)
    ? list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
    : [];
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

async function groupNamed(url: string, token: string, name: string): Promise<string> {
  const id = str(
    items(await getJson(`${url}/api/groups?where=${encodeURIComponent(JSON.stringify({ name }))}`, token))[0]
      ?._id,
  );
  if (id === undefined) throw new Error(`the store at ${url} has no group ${name}`);
  return id;
}

/**
 * The host of the newest action and another host on the seeded fleet at `storeUrl`, and the groups
 * `region-0` (a container: three levels) and `salt-master.bench` (the root) on the graph store at `graphUrl`; a server not running
 * leaves its ids empty (its scenarios are not selected).
 */
export async function findFixtures(token: string, storeUrl?: string, graphUrl?: string): Promise<Fixtures> {
  let host = '';
  let patchHost = '';
  let group = '';
  let root = '';
  if (storeUrl !== undefined) {
    host = str(items(await getJson(`${storeUrl}/api/actions?max_results=1`, token))[0]?.host) ?? '';
    const hosts = items(await getJson(`${storeUrl}/api/hosts?max_results=2&sort=-_id`, token)).map(
      (h) => str(h._id) ?? '',
    );
    patchHost = hosts.find((h) => h !== '' && h !== host) ?? '';
    if (host === '' || patchHost === '')
      throw new Error(`the store at ${storeUrl} has no host with actions, or a single host`);
  }
  if (graphUrl !== undefined) {
    group = await groupNamed(graphUrl, token, 'region-0');
    root = await groupNamed(graphUrl, token, 'salt-master.bench');
  }
  return { host, patchHost, group, root };
}
