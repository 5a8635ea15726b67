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
  return encodeURIComponent(text).replace(/%(3A|40|2F|3F|2C|3B|3D|24)/g, (code) => decodeURIComponent(code));
}

const pair = (name: string, value: string): string => `${encodeQueryPart(name)}=${encodeQueryPart(value)}`;

function otherParams(query: RawQuery): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if ((COMMON_PARAMS as readonly string[]).includes(key)) continue;
    for (const v of Array.isArray(value) ? value : [value])
      parts.push(pair(key, typeof v === 'string' ? v : ''));
  }
  return parts;
}

function href(path: string, query: RawQuery, info: PageInfo, page: number): string {
  const parts: string[] = [];
  if (info.maxResults !== info.defaultMaxResults) parts.push(`max_results=${info.maxResults}`);
  for (const name of ['where', 'sort'] as const) {
    const value = query[name];
    if (typeof value === 'string' && value !== '') parts.push(pair(name, value));
  }
  if (page > 1) parts.push(`page=${page}`);
  parts.push(...otherParams(query));
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

/** `_links` of a collection page: parent, self, and prev/next/last where they exist. */
export function collectionLinks(
  path: string,
  title: string,
  query: RawQuery,
  info: PageInfo,
): Record<string, { title: string; href: string }> {
  const links: Record<string, { title: string; href: string }> = {
    parent: { title: 'home', href: '/' },
    self: { title, href: href(path, query, info, info.page) },
  };
  if (info.page > 1) links.prev = { title: 'previous page', href: href(path, query, info, info.page - 1) };
  if (info.page * info.maxResults < info.total) {
    links.next = { title: 'next page', href: href(path, query, info, info.page + 1) };
    links.last = {
      title: 'last page',
      href: href(path, query, info, Math.ceil(info.total / info.maxResults)),
    };
  }
  return links;
}
