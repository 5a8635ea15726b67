/**
 * The paths that are no resource's: the home document and the media endpoint (http/api.ts), the
 * OpenAPI document itself, and what the server mounts (packages/server app.ts): the health check
 * and the root's redirect to the home document.
 */
import { componentRef, json, ref, type Schema } from './schema';
import { operation, pathParameter } from './operation';

const HEALTH: Schema = {
  type: 'object',
  description: 'ok: the store answers a read and takes a write; otherwise which of the two fails',
  properties: {
    status: { enum: ['ok', 'unavailable'] },
    store: { type: 'string', description: 'The store kind: sqlite or mongodb', examples: ['sqlite'] },
    version: { type: 'string', description: 'The release this instance runs (semver)', examples: ['1.0.0'] },
    readable: { type: 'boolean' },
    writable: { type: 'boolean' },
    problem: { type: 'string' },
  },
  required: ['status', 'store', 'version'],
  additionalProperties: false,
};

const AGE: Schema = { type: 'number', minimum: 0, description: "Seconds since the part's last sign" };

const PART: Schema = {
  type: 'object',
  description:
    'One part: its state (ok, down, failed, stale, never, off, elsewhere) and the age of its last sign',
  properties: {
    state: { enum: ['ok', 'down', 'failed', 'stale', 'never', 'off', 'elsewhere'] },
    age_s: AGE,
  },
  required: ['state'],
  additionalProperties: true,
};

const PARTS: Schema = { type: 'object', additionalProperties: ref('ReadinessPart') };

const READINESS: Schema = {
  type: 'object',
  description:
    'ok: every part is; degraded: a peer or a duty is down but the API serves; unavailable: the store cannot be read or written. States and ages only: no address, no error text, no secret.',
  properties: {
    status: { enum: ['ok', 'degraded', 'unavailable'] },
    checked: { type: 'string', format: 'date-time' },
    parts: {
      type: 'object',
      properties: {
        store: ref('ReadinessPart'),
        master: ref('ReadinessPart'),
        sync: ref('ReadinessPart'),
        events: ref('ReadinessPart'),
        vpn_managers: { ...PARTS, description: 'Each VPN manager by _id: whether it accepts a connection' },
        duties: { ...PARTS, description: 'Each once-per-deployment duty by lease name: its last run' },
      },
      required: ['store'],
      additionalProperties: false,
    },
  },
  required: ['status', 'parts'],
  additionalProperties: false,
};

const HOME: Schema = {
  type: 'object',
  properties: {
    _links: {
      type: 'object',
      properties: { child: { type: 'array', items: ref('Link') } },
      required: ['child'],
      additionalProperties: false,
    },
  },
  required: ['_links'],
  additionalProperties: false,
};

const documentOp = (operationId: string, summary: string): Schema =>
  operation({
    operationId,
    tag: 'api',
    summary,
    role: null,
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document',
        content: json({
          type: 'object',
          properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
          required: ['openapi', 'info', 'paths'],
        }),
      },
    },
    errors: [500],
  });

const mediaQuery = (name: string, description: string): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string' },
});

/** The system paths and the schemas they name. */
export function systemPaths(): { paths: Record<string, Schema>; schemas: Record<string, Schema> } {
  const paths: Record<string, Schema> = {
    '/': {
      get: operation({
        operationId: 'getRoot',
        tag: 'api',
        summary: 'The server root: a redirect to the home document',
        description:
          "Pages' `_links.parent` is `/`, the home: the root sends a client there (/api/, against which the home document's relative hrefs resolve).",
        role: null,
        responses: {
          302: {
            description: 'Found: the home document is at /api/',
            headers: { Location: { description: '/api/', schema: { const: '/api/' } } },
          },
        },
        errors: [],
      }),
    },
    '/api/health': {
      get: operation({
        operationId: 'getHealth',
        tag: 'api',
        summary: 'Health of the instance (for load balancers)',
        role: null,
        responses: {
          200: { description: 'Healthy', content: json(ref('Health')) },
          503: {
            description: 'The store cannot be read or written',
            headers: { 'Retry-After': componentRef('headers', 'RetryAfter') },
            content: json(ref('Health')),
          },
        },
        errors: [500],
      }),
    },
    '/api/health/ready': {
      get: operation({
        operationId: 'getReadiness',
        tag: 'api',
        summary: 'Readiness of the instance: each part with its state and age',
        description:
          'The store, the master (reachable), the last sync, the event stream, each VPN manager and each background duty. 200 when the API serves (ok or degraded), 503 only when it cannot.',
        role: null,
        responses: {
          200: { description: 'Serving: ok or degraded', content: json(ref('Readiness')) },
          503: {
            description: 'The store cannot be read or written',
            headers: { 'Retry-After': componentRef('headers', 'RetryAfter') },
            content: json(ref('Readiness')),
          },
        },
        errors: [500],
      }),
    },
    '/api/openapi.json': { get: documentOp('getOpenApiDocument', 'This document') },
    '/api/docs/openapi.json': {
      get: documentOp('getOpenApiDocumentAlias', 'This document (the path it had first)'),
    },
    '/api': {
      get: operation({
        operationId: 'getHome',
        tag: 'api',
        summary: 'The resources a client may list, as links (hrefs relative to /api/)',
        role: 'viewer',
        responses: { 200: { description: 'One link per resource', content: json(ref('Home')) } },
        errors: [401, 500],
      }),
    },
    '/api/media/{id}': {
      parameters: [pathParameter('id', "The media id (from a media field's link)")],
      get: operation({
        operationId: 'getMedia',
        tag: 'api',
        summary: 'The bytes of an uploaded file',
        description:
          'With a bearer token, or with the expires and signature of the signed link a media field reads back as (no token: for <img src> and download links). Raster images and PDF are shown inline, anything else is an attachment.',
        role: 'viewer',
        security: [{ bearer: [] }, { mediaLink: [] }],
        parameters: [
          mediaQuery('expires', 'Signed link: its expiry (unix seconds)'),
          mediaQuery('signature', 'Signed link: its signature'),
        ],
        responses: {
          200: {
            description: 'The file, in its own media type',
            headers: { 'Content-Disposition': componentRef('headers', 'ContentDisposition') },
            content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
        },
        errors: [401, 404, 500, 503],
      }),
    },
  };
  return {
    paths,
    schemas: { Health: HEALTH, Readiness: READINESS, ReadinessPart: PART, Home: HOME },
  };
}
