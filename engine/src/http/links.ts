/**
 * Collection links as Eve builds them (docs/eve-compatibility.md): hrefs relative to `/api` with no
 * leading slash, the query repeated in a fixed order (`max_results` when not the default, `where`,
 * `sort`, `page` when > 1, then every other parameter in the order given). Unlike Eve, each name
 * and value is percent-encoded where it must be, so a link is a URL that decodes to the same query
 * (a `+` in a `$regex` stays a plus, an `&` or `#` in a filter does not cut it), and `self` repeats
 * the query on an empty page too.
 */
import { COMMON_PARAMS, type RawQuery } from '../query/params';

export interface PageInfo {
  readonly page: number;
  readonly maxResults: number;
  readonly total: number;
  readonly defaultMaxResults: number;
}

/**
 * A query name or value as a URL carries it: `encodeURIComponent`, then the characters RFC 3986
 * allows unencoded in a query and a form decoder reads as themselves (`: @ / ? , ; = $`) are put
 * back, so `where={"status":"up"}` stays readable. `&`, `+`, `#`, `%`, spaces, quotes and braces
 * stay encoded (RFC 3986 §3.4; the WHATWG form decoder reads `+` as a space).
 */
export function encodeQueryPart(text: string): string {
  const known = encoded.get(text);
  if (known !== undefined) return known;
  const out = encodeURIComponent(text).replace(/%(3A|40|2F|3F|2C|3B|3D|24)/g, (code) =>
    decodeURIComponent(code),
  );
  if (encoded.size >= ENCODED_MAX) encoded.clear();
  encoded.set(text, out);
  return out;
}

/** Query parts already encoded: a page's links encode the same `where` on every request of a list. */
const encoded = new Map<string, string>();
const ENCODED_MAX = 2_000;

const pair = (name: string, value: string): string => `${encodeQueryPart(name)}=${encodeQueryPart(value)}`;

const COMMON: ReadonlySet<string> = new Set(COMMON_PARAMS);

function otherParams(query: RawQuery): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (COMMON.has(key)) continue;
    for (const v of Array.isArray(value) ? value : [value])
      parts.push(pair(key, typeof v === 'string' ? v : ''));
  }
  return parts;
}

/** The href of each page of one list: the parts that do not change with the page, encoded once. */
function pageHrefs(path: string, query: RawQuery, info: PageInfo): (page: number) => string {
  const head: string[] = [];
  if (info.maxResults !== info.defaultMaxResults) head.push(`max_results=${info.maxResults}`);
  for (const name of ['where', 'sort'] as const) {
    const value = query[name];
    if (typeof value === 'string' && value !== '') head.push(pair(name, value));
  }
  const tail = otherParams(query);
  return (page) => {
    const parts = page > 1 ? [...head, `page=${page}`, ...tail] : [...head, ...tail];
    return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
  };
}

/** `_links` of a collection page: parent, self, and prev/next/last where they exist. */
export function collectionLinks(
  path: string,
  title: string,
  query: RawQuery,
  info: PageInfo,
): Record<string, { title: string; href: string }> {
  const href = pageHrefs(path, query, info);
  const links: Record<string, { title: string; href: string }> = {
    parent: { title: 'home', href: '/' },
    self: { title, href: href(info.page) },
  };
  if (info.page > 1) links.prev = { title: 'previous page', href: href(info.page - 1) };
  if (info.page * info.maxResults < info.total) {
    links.next = { title: 'next page', href: href(info.page + 1) };
    links.last = { title: 'last page', href: href(Math.ceil(info.total / info.maxResults)) };
  }
  return links;
}
