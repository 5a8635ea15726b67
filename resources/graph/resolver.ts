/**
 * The IP resolver's URL (POST /api/graph `ip_resolver`, `settings.addresses.resolver_address`):
 * an http or https URL a host can GET, that answers the address it was seen from as plain text.
 * Checked with the WHATWG URL parser (the one curl and wget's inputs are written for), in one
 * place so the graph action and the settings refuse the same values.
 */

/** The longest URL accepted (it travels in a shell line and the master's job cache). */
export const MAX_RESOLVER_LENGTH = 2048;

/** Why `value` is not a usable resolver URL, or null when it is. */
export function resolverIssue(value: string): string | null {
  if (value.length > MAX_RESOLVER_LENGTH) return `max length is ${MAX_RESOLVER_LENGTH}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  // Credentials would be written into the master's job cache with the command line.
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  if (url.hostname === '') return 'must name a host';
  return null;
}

/** The URL as the service sends it: the parser's serialisation (spaces and quotes escaped). */
export function normalizedResolver(value: string): string {
  return new URL(value).href;
}

/** The URL as it may be shown (job records, logs): scheme, host and path; never the query. */
export function shownResolver(value: string): string {
  const url = new URL(value);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
