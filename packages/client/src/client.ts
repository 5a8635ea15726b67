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
    headers: { ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }), ...options.headers },
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

function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && (value as { _status?: unknown })._status === 'ERR';
}

/** The data of a call, or a {@link FleetApiError}: `const host = await ok(client.GET(...))`. */
export async function ok<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new FleetApiError(response.status, isApiError(error) ? error : undefined);
  return data as D;
}

/** The `If-Match` header of a write that must apply to this version of the item only (412 otherwise). */
export function ifMatch(item: { readonly _etag: string }): { 'If-Match': string } {
  return { 'If-Match': item._etag };
}

/** The URL of a link of the API (`_links.next.href` is relative to /api; `/` is the home). */
export function linkUrl(baseUrl: string, link: { readonly href: string }): string {
  const href = link.href === '/' ? '' : link.href.replace(/^\/+/, '');
  return `${baseUrl.replace(/\/+$/, '')}/api/${href}`;
}
