/**
 * Collection links exactly as Eve builds them (research/eve.md §1.2): hrefs relative to `/api`
 * with no leading slash, the query repeated in a fixed order (`max_results` when not the default,
 * `where`, `sort`, `page` when > 1, then every other parameter), values inserted raw.
 */
import { COMMON_PARAMS, type RawQuery } from '../query/params';

export interface PageInfo {
  readonly page: number;
  readonly maxResults: number;
  readonly total: number;
  readonly defaultMaxResults: number;
}

function otherParams(query: RawQuery): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if ((COMMON_PARAMS as readonly string[]).includes(key)) continue;
    for (const v of Array.isArray(value) ? value : [value])
      parts.push(`${key}=${typeof v === 'string' ? v : ''}`);
  }
  return parts;
}

function href(path: string, query: RawQuery, info: PageInfo, page: number): string {
  const parts: string[] = [];
  if (info.maxResults !== info.defaultMaxResults) parts.push(`max_results=${info.maxResults}`);
  for (const name of ['where', 'sort'] as const) {
    const value = query[name];
    if (typeof value === 'string' && value !== '') parts.push(`${name}=${value}`);
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
    self: { title, href: info.total > 0 ? href(path, query, info, info.page) : path },
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
