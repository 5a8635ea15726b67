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
  return Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The host of the newest action and another host on the seeded fleet at `storeUrl`, and the group
 * `region-0` (a container: three levels) on the graph store at `graphUrl`; a server not running
 * leaves its ids empty (its scenarios are not selected).
 */
export async function findFixtures(token: string, storeUrl?: string, graphUrl?: string): Promise<Fixtures> {
  let host = '';
  let patchHost = '';
  let group = '';
  if (storeUrl !== undefined) {
    host = str(items(await getJson(`${storeUrl}/api/actions?max_results=1`, token))[0]?.host) ?? '';
    const hosts = items(await getJson(`${storeUrl}/api/hosts?max_results=2&sort=-_id`, token)).map((h) => str(h._id) ?? '');
    patchHost = hosts.find((h) => h !== '' && h !== host) ?? '';
    if (host === '' || patchHost === '') throw new Error(`the store at ${storeUrl} has no host with actions, or a single host`);
  }
  if (graphUrl !== undefined) {
    const where = encodeURIComponent(JSON.stringify({ name: 'region-0' }));
    group = str(items(await getJson(`${graphUrl}/api/groups?where=${where}`, token))[0]?._id) ?? '';
    if (group === '') throw new Error(`the store at ${graphUrl} has no group region-0`);
  }
  return { host, patchHost, group };
}
