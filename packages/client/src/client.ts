/**
 * The typed client: openapi-fetch over the generated `paths`, with the bearer token set once,
 * and the errors of the API as one typed class.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths, Readable, Writable } from './schema';

/** Every schema of the API by name, as answers carry it: `Schemas['Host']`, `Schemas['HostsPage']`, ... */
export type Schemas = { [K in keyof components['schemas']]: Readable<components['schemas'][K]> };

/** A body schema as a request sends it: `Body<'TaskPatch'>` (server-set fields excluded, write-only ones kept). */
export type Body<K extends keyof components['schemas']> = Writable<components['schemas'][K]>;

/** The API's error body: `{_status: "ERR", _error: {code, message}, _issues?}`. */
export type ApiError = Schemas['Error'];

/** A client of the Fleet API: `client.GET('/api/hosts/{id}', { params: { path: { id } } })`. */
export type FleetClient = Client<paths>;

export interface FleetClientOptions {
  /** Where the API is: `http://fleet.example:8080` (the paths start with /api). */
  readonly baseUrl: string;
  /** A bearer token (API_TOKENS or `fleet token create`). */
  readonly token?: string;
  /** Another fetch (tests, proxies); default: the global one. */
  readonly fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A client bound to one server and token. */
export function createFleetClient(options: FleetClientOptions): FleetClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** A failed call: the status and, when the API answered its error shape, the body. */
export class FleetApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?._error.message ?? `HTTP ${status}`);
    this.name = 'FleetApiError';
  }
}

/** The API's error body (any other failed answer, a proxy's page, has none). */
export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && '_status' in value && value._status === 'ERR';
}

/** What an openapi-fetch call resolves: its data, or the error body it parsed (openapi-fetch's FetchResponse). */
export type CallResult = { data?: unknown; error?: unknown; response: Response };
/** The successful shape of a call's result (openapi-fetch's success member has no `error`). */
export type Succeeded<R> = Extract<R, { error?: never }>;

/** A 2xx answer: openapi-fetch sets `error` on every other (text when not JSON, never undefined). */
export function succeeded<R extends CallResult>(result: R): result is Succeeded<R> {
  return result.error === undefined && result.response.ok;
}

/** The error of a failed call. */
export function failure(result: CallResult): FleetApiError {
  return new FleetApiError(result.response.status, isApiError(result.error) ? result.error : undefined);
}

/** The data of a call, or a {@link FleetApiError}: `const host = await ok(client.GET(...))`. */
export async function ok<R extends CallResult>(call: Promise<R>): Promise<Succeeded<R>['data']> {
  const result = await call;
  if (!succeeded(result)) throw failure(result);
  return result.data;
}

/** The `If-Match` header of a write that must apply to this version of the item only (412 otherwise). */
export function ifMatch(item: { readonly _etag: string }): { 'If-Match': string } {
  return { 'If-Match': item._etag };
}

/**
 * The URL of anything the API links to, each kind resolved by its own rule: an absolute URL (a
 * media link under the server's PUBLIC_URL) as it is; a path (`Location`, `/api/media/...`) under
 * the server's base; an href of `_links` relative to `/api/` (`hosts?page=2`); `/`, a page's
 * `parent`, is the home document (`/api/`).
 */
export function linkUrl(baseUrl: string, link: string | { readonly href: string }): string {
  const href = typeof link === 'string' ? link : link.href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  const base = baseUrl.replace(/\/+$/, '');
  if (href === '/' || href === '') return `${base}/api/`;
  return href.startsWith('/') ? `${base}${href}` : `${base}/api/${href}`;
}
