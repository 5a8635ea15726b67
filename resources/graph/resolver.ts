/**
 * The IP resolver's URL (POST /api/graph `ip_resolver`, `settings.addresses.resolver_address`):
 * an http or https URL a host can GET, that answers the address it was seen from as plain text.
 * Checked with the WHATWG URL parser (the one curl and wget's inputs are written for), in one
 * place so the graph action and the settings refuse the same values.
 */
import { httpUrlIssue } from '@fleet/engine';

/**
 * Why `value` is not a usable resolver URL, or null when it is. Credentials are refused: they would
 * be written into the master's job cache with the command line. No address range is refused: the
 * minions call the resolver, not the service.
 */
export function resolverIssue(value: string): string | null {
  return httpUrlIssue(value);
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
