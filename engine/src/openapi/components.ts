/**
 * The parts every resource shares: the error shape (http/error-handler.ts), links and the page
 * envelope (http/links.ts, http/results.ts), the common query parameters (query/params.ts), the
 * conditional-request headers (http/conditional.ts) and the response headers.
 */
import { DATE_EXAMPLE, RFC1123_PATTERN } from './fields';
import { componentRef, json, ref, type Schema } from './schema';

/** An RFC 1123 date, as meta fields and `Last-Modified` carry it. */
export const HTTP_DATE: Schema = { type: 'string', pattern: RFC1123_PATTERN, examples: [DATE_EXAMPLE] };

/** The meta fields of every stored item, as rendered (`_links` is the resource's own). */
export const META_PROPERTIES: Schema = {
  _id: { type: 'string', readOnly: true, description: 'The item id', examples: ['6566d7e2a1b2c3d4e5f60718'] },
  _created: { ...HTTP_DATE, readOnly: true, description: 'Creation time (RFC 1123)' },
  _updated: { ...HTTP_DATE, readOnly: true, description: 'Last change (RFC 1123)' },
  _etag: {
    type: 'string',
    readOnly: true,
    description: 'Version of the item: send it back in If-Match to write only that version',
    examples: ['c4ab3a4f3b1a5e1c9e2d8f7a6b5c4d3e2f1a0b9c'],
  },
};
export const META_REQUIRED = ['_id', '_created', '_updated', '_etag'] as const;

const link = (title: string, href: string): Schema => ({ ...ref('Link'), examples: [{ title, href }] });

/** `_issues`: a message per field, nested like the document (errors.ts `Issues`). */
const ISSUES: Schema = {
  type: 'object',
  description:
    'One message per invalid field, nested like the document ({"info": {"regex": "..."}}); list elements by index',
  additionalProperties: { anyOf: [{ type: 'string' }, ref('Issues')] },
  examples: [{ name: 'required field', info: { regex: 'max length is 256' } }],
};

const ERROR_STATUS: Schema = {
  type: 'object',
  properties: { code: { type: 'integer', description: 'The HTTP status' }, message: { type: 'string' } },
  required: ['code', 'message'],
  additionalProperties: false,
};

/** Schemas of `components.schemas` shared by every resource. */
export const SHARED_SCHEMAS: Readonly<Record<string, Schema>> = {
  Link: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      href: {
        type: 'string',
        description:
          'Relative to /api/, no leading slash ("/", a page\'s parent, is the server root: it redirects to the home document)',
      },
    },
    required: ['title', 'href'],
    additionalProperties: false,
  },
  CollectionLinks: {
    type: 'object',
    description:
      'Links of a page; each href repeats the query (max_results when not the default, where, sort, page, then the rest), each value percent-encoded where a URL needs it: follow an href as given, resolved against /api/',
    properties: {
      parent: link('home', '/'),
      self: link('hosts', 'hosts?max_results=2'),
      prev: { ...ref('Link'), description: 'The previous page (page > 1)' },
      next: {
        ...ref('Link'),
        description: 'The next page, when there is one',
        examples: [{ title: 'next page', href: 'hosts?max_results=2&page=2' }],
      },
      last: { ...ref('Link'), description: 'The last page, when there is a next one' },
    },
    required: ['parent', 'self'],
    additionalProperties: false,
  },
  Meta: {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 1 },
      max_results: {
        type: 'integer',
        minimum: 1,
        description: 'Items per page (default 25, capped by PAGINATION_LIMIT)',
      },
      total: { type: 'integer', minimum: 0, description: 'Items matching the query, on every page' },
    },
    required: ['page', 'max_results', 'total'],
    additionalProperties: false,
  },
  Issues: ISSUES,
  Error: {
    type: 'object',
    description: 'Every error: {"_status": "ERR", "_error": {code, message}}, with `_issues` on most 422s',
    properties: { _status: { const: 'ERR' }, _error: ERROR_STATUS, _issues: ref('Issues') },
    required: ['_status', '_error'],
    additionalProperties: false,
    examples: [{ _status: 'ERR', _error: { code: 404, message: 'The requested resource was not found' } }],
  },
  CreateError: {
    type: 'object',
    description:
      'A create refused (422): nothing was stored. One document: _issues names each field. A bulk insert (a JSON array): _items, one entry per submitted document, in order',
    properties: {
      _status: { const: 'ERR' },
      _error: ERROR_STATUS,
      _issues: ref('Issues'),
      _items: {
        type: 'array',
        items: {
          anyOf: [
            {
              type: 'object',
              properties: { _status: { const: 'OK' } },
              required: ['_status'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { _status: { const: 'ERR' }, _issues: ref('Issues') },
              required: ['_status', '_issues'],
              additionalProperties: false,
            },
          ],
        },
      },
    },
    required: ['_status', '_error'],
    additionalProperties: false,
  },
};

const query = (name: string, schema: Schema, description: string, examples?: readonly unknown[]): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { ...schema, ...(examples ? { examples } : {}) },
});
const header = (name: string, description: string, schema: Schema = { type: 'string' }): Schema => ({
  name,
  in: 'header',
  required: false,
  description,
  schema,
});

/**
 * A boolean-like query parameter's value (query/params.ts `booleanParam`): sent as text, so a
 * typed client may pass a boolean or 0 / 1; `TRUE`, `False` are read the same.
 */
export const BOOLEAN_PARAM_SCHEMA: Schema = { enum: [true, false, 1, 0], examples: [true] };

/** The common query parameters (spec "Common query parameters") and the conditional headers. */
export const SHARED_PARAMETERS: Readonly<Record<string, Schema>> = {
  where: query(
    'where',
    { type: 'string' },
    'Filter in MongoDB query syntax, as JSON text (operators: $eq $ne $gt $gte $lt $lte $in $nin $and $or $nor $not $exists $regex $size $all $elemMatch)',
    ['{"status": "up"}'],
  ),
  sort: query(
    'sort',
    { type: 'string' },
    'Fields to sort by, comma-separated; a leading - is descending (also Eve\'s [("field", -1)])',
    ['-_updated,_id'],
  ),
  projection: query(
    'projection',
    { type: 'string' },
    'JSON object of fields to keep (1) or hide (0), not mixed; meta fields always stay. A projected-out field is absent from the items',
    ['{"grain": 0}'],
  ),
  page: query('page', { type: 'integer', minimum: 1, default: 1 }, 'Page number'),
  max_results: query(
    'max_results',
    { type: 'integer', minimum: 1, default: 25 },
    "Items per page, capped by the server's PAGINATION_LIMIT",
  ),
  IfMatch: header('If-Match', "Write only this version (the item's ETag / _etag); another version is a 412"),
  IfNoneMatch: header('If-None-Match', 'The ETag of a cached copy: 304 when it is still current'),
  IfModifiedSince: header(
    'If-Modified-Since',
    'The Last-Modified of a cached copy (RFC 1123): 304 when unchanged since',
    HTTP_DATE,
  ),
};

const hdr = (description: string, schema: Schema = { type: 'string' }): Schema => ({ description, schema });

/** Response headers. */
export const SHARED_HEADERS: Readonly<Record<string, Schema>> = {
  ETag: hdr('The item\'s version, quoted ("<_etag>"); a bulk create answers none'),
  LastModified: hdr('The newest _updated of the answer (RFC 1123)', HTTP_DATE),
  Location: hdr('Path of the created item (/api/<resource>/<id>), or of the started job'),
  TotalCount: hdr('Items matching the query, as _meta.total', { type: 'integer', minimum: 0 }),
  DeletedCount: hdr('How many items were deleted', { type: 'integer', minimum: 0 }),
  RetryAfter: hdr('Seconds to wait before trying again', { type: 'integer', minimum: 1 }),
  WWWAuthenticate: hdr('Bearer realm="fleet-api"'),
  ContentDisposition: hdr('attachment or inline, with the file name (RFC 8187 filename*)'),
};

const error = (description: string, headers?: Schema): Schema => ({
  description,
  ...(headers ? { headers } : {}),
  content: json(ref('Error')),
});
const retry = { 'Retry-After': componentRef('headers', 'RetryAfter') };

/** Error responses by status: every 4xx/5xx the API answers, in the one error shape. */
export const ERROR_RESPONSES: Readonly<Record<number, Schema>> = {
  400: error('Bad request: a malformed query parameter or body (the message names it)'),
  401: error('No token, or an unknown one (also: an invalid or expired media link)', {
    'WWW-Authenticate': componentRef('headers', 'WWWAuthenticate'),
  }),
  403: error(
    "The token's role is below the one this operation (or one of its parameters) needs, or the server's policy refuses the call",
  ),
  404: error('No such item (or it is hidden by soft delete)'),
  409: error(
    'Conflict: a duplicate of a unique field (named in _issues), an item still referred to, or a state that forbids the change',
  ),
  412: error('If-Match names another version of the item'),
  413: error('The body (or an upload, or a bulk insert) is too large'),
  415: error('The body is not of a media type this operation accepts'),
  422: error('The body failed validation: _issues names each field (nested like the document)'),
  429: error(
    'Rate limit of the token exceeded (RATE_LIMIT_WRITES_PER_MIN, RATE_LIMIT_EXEC_PER_MIN), or its budget of large reads in flight',
    retry,
  ),
  500: error('Internal server error (no detail; the log has it)'),
  502: error('A peer (the Salt master or a VPN server) answered with an error'),
  503: error('The store, the master or a VPN server is unavailable or not configured', retry),
  504: error('A peer (the Salt master or a VPN server) did not answer in time'),
};

/** One shape for both kinds of create, so a client reads `_issues` without narrowing a union. */
const BULK_422: Schema = {
  description:
    'The body failed validation: _issues names each field; a bulk insert (a JSON array) answers _items, one entry per document',
  content: json(ref('CreateError')),
};

/** `components.responses`: the errors by name (`Error404`, and `Error422Bulk` for creates), referenced by every operation. */
export function errorResponseComponents(): Record<string, Schema> {
  return {
    ...Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, body]) => [`Error${status}`, body])),
    Error422Bulk: BULK_422,
  };
}

/** The error responses of `statuses`, as references; `bulk`: the 422 of a create that takes arrays. */
export function errorResponses(statuses: Iterable<number>, bulk = false): Record<string, Schema> {
  const name = (s: number): string => (s === 422 && bulk ? 'Error422Bulk' : `Error${s}`);
  return Object.fromEntries(
    [...new Set(statuses)].sort((a, b) => a - b).map((s) => [String(s), componentRef('responses', name(s))]),
  );
}
