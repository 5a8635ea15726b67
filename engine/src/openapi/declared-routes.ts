/**
 * Custom routes (under their resource) and route groups (under their base), described from what
 * they declare (definition/routes.ts): the JSON Schema of their Zod `body`, `query` and
 * `response`, the resource they `render`, `noContent` or a `download`.
 *
 * A `response` that is a union whose members carry `.meta({ 'x-status': 202 })` answers each
 * member with its own status (POST /api/graph: 202 with the started job, 200 with the built
 * graph); members without one are the 200.
 */
import { z } from 'zod';
import type { Registry } from '../compile/registry';
import type { RouteSpec } from '../definition/routes';
import { componentRef, camelOperation, json, ref, schemaNames, type Schema } from './schema';
import { routeErrors } from './errors';
import { operation, pathParameter } from './operation';

/** The JSON Schema of a declared Zod schema: what it accepts (`input`) or what it produces (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
  return rest;
}

/** A response schema split by the `x-status` its union members declare. */
function byStatus(schema: Schema): Map<number, Schema> {
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [];
  const out = new Map<number, Schema[]>();
  if (!members.some((m) => typeof m['x-status'] === 'number')) return new Map([[200, schema]]);
  for (const member of members) {
    const { 'x-status': status, ...rest } = member;
    const key = typeof status === 'number' ? status : 200;
    out.set(key, [...(out.get(key) ?? []), rest]);
  }
  return new Map(
    [...out].map(([status, list]) => [status, list.length === 1 ? (list[0] ?? {}) : { anyOf: list }]),
  );
}

/** What a route answers on success. */
function successResponses(
  route: RouteSpec,
  registry: Registry,
  own: string | undefined,
): Record<string, Schema> {
  if (route.response) {
    const out: Record<string, Schema> = {};
    for (const [status, schema] of byStatus(jsonSchemaOf(route.response, 'output'))) {
      out[String(status)] = {
        description: status === 202 ? 'Accepted: started, poll the Location' : 'OK',
        content: json(schema),
      };
    }
    return out;
  }
  if (route.noContent) return { 204: { description: 'Done, no content' } };
  if (route.download) {
    const file = {
      schema: {
        type: 'string',
        contentMediaType: 'application/octet-stream',
        description: 'The file, in its own media type',
      },
    };
    return {
      200: {
        description: 'The file, as an attachment',
        headers: { 'Content-Disposition': componentRef('headers', 'ContentDisposition') },
        content: { '*/*': file },
      },
    };
  }
  const resource = route.renders?.resource ?? own;
  if (route.renders === undefined || resource === undefined)
    throw new Error(`${route.method.toUpperCase()} ${route.path}: declares no answer`);
  const names = schemaNames(registry.get(resource));
  const etag = { ETag: componentRef('headers', 'ETag') };
  if (route.renders.as === 'write')
    return { 200: { description: 'Written', headers: etag, content: json(ref(names.written)) } };
  if (route.renders.as === 'list')
    return {
      200: {
        description: 'A page',
        headers: { 'X-Total-Count': componentRef('headers', 'TotalCount') },
        content: json(ref(names.page)),
      },
    };
  return { 200: { description: 'The item', headers: etag, content: json(ref(names.item)) } };
}

/** The query parameters of a route's declared `query` schema. */
function queryParameters(route: RouteSpec): Schema[] {
  if (!route.query) return [];
  const query = jsonSchemaOf(route.query, 'input');
  const required = new Set(Array.isArray(query.required) ? (query.required as string[]) : []);
  return Object.entries((query.properties ?? {}) as Record<string, Schema>).map(([name, schema]) => {
    const { description, ...rest } = schema;
    const array = rest.type === 'array';
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
      ...(array ? { style: 'form', explode: true } : {}),
    };
  });
}

/** The JSON body of a route's declared `body` schema. */
function requestBody(route: RouteSpec): Schema | undefined {
  if (!route.body) return undefined;
  const schema = jsonSchemaOf(route.body, 'input');
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  return { required, content: json(schema) };
}

/** Adds one declared route, mounted at `/api/<base>`, to `paths`. `own`: the resource it is mounted under. */
export function addRoute(
  paths: Record<string, Schema>,
  registry: Registry,
  at: { base: string; tag: string; own?: string },
  route: RouteSpec,
): void {
  const path = `/api/${at.base}${route.path.replace(/:(\w+)/g, '{$1}')}`;
  const segments = [at.base, ...route.path.split('/').filter((s) => s !== '')];
  const item: Schema = { ...(paths[path] ?? {}) };
  const declared = new Set(((item.parameters ?? []) as Schema[]).map((p) => p.name));
  const pathParams = [...route.path.matchAll(/:(\w+)/g)]
    .map((m) => m[1] ?? '')
    .filter((name) => !declared.has(name));
  if (pathParams.length > 0)
    item.parameters = [
      ...((item.parameters ?? []) as Schema[]),
      ...pathParams.map((name) => pathParameter(name, name === 'id' ? "The item's _id" : `The ${name}`)),
    ];
  const body = requestBody(route);
  item[route.method] = operation({
    operationId: camelOperation(route.method, segments),
    tag: at.tag,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    role: route.role,
    // A route that renders a write passes If-Match to its handler (RouteRequest.ifMatch).
    parameters: [
      ...queryParameters(route),
      ...(route.renders?.as === 'write' ? [componentRef('parameters', 'IfMatch')] : []),
    ],
    ...(body ? { requestBody: body } : {}),
    responses: successResponses(route, registry, at.own),
    errors: routeErrors(route),
  });
  paths[path] = item;
}
