/**
 * OpenAPI 3.1 description generated from the definitions: one schema per resource (read shape,
 * with secrets shown as masked strings), the collection/item paths each method exposes, the
 * custom routes and the route groups (with the JSON Schema of their declared Zod body, query and
 * response), bearer auth and the one error shape.
 */
import { z } from 'zod';
import type { CompiledResource } from './compile/compile';
import type { Registry } from './compile/registry';
import type { Field, FieldKind } from './definition/fields';
import type { RouteSpec } from './definition/routes';

type Schema = Record<string, unknown>;

const kindSchema = {
  string: (f) => (f.kind === 'string' && f.enum ? { type: 'string', enum: [...f.enum] } : { type: 'string' }),
  integer: (f) => (f.kind === 'integer' && f.enum ? { type: 'integer', enum: [...f.enum] } : { type: 'integer' }),
  number: () => ({ type: 'number' }),
  boolean: () => ({ type: 'boolean' }),
  datetime: () => ({ type: 'string', description: 'RFC 1123 date, e.g. Wed, 25 Nov 2026 21:08:02 GMT' }),
  ref: (f) => ({ type: 'string', description: f.kind === 'ref' ? `Id of a ${f.to} item` : '' }),
  media: () => ({ type: 'string', description: 'URL /api/media/<id> (binary on upload)' }),
  array: (f) => ({ type: 'array', items: f.kind === 'array' ? fieldSchema(f.of) : {} }),
  object: (f) =>
    f.kind === 'object'
      ? { type: 'object', properties: Object.fromEntries(Object.entries(f.fields).map(([k, v]) => [k, fieldSchema(v)])), additionalProperties: f.open === true }
      : {},
} satisfies Record<FieldKind, (f: Field) => Schema>;

function fieldSchema(field: Field): Schema {
  const base: Schema = { ...kindSchema[field.kind](field) };
  if (field.description) base.description = field.description;
  if (field.readonly) base.readOnly = true;
  if (field.writeOnly) base.writeOnly = true;
  if (field.secret) base.description = `${String(base.description ?? '')} Secret: accepted on write, read back as "********".`.trim();
  return field.nullable ? { anyOf: [base, { type: 'null' }] } : base;
}

const META: Schema = {
  _id: { type: 'string', readOnly: true },
  _created: { type: 'string', readOnly: true },
  _updated: { type: 'string', readOnly: true },
  _etag: { type: 'string', readOnly: true },
  _links: { type: 'object', readOnly: true },
};

function resourceSchema(res: CompiledResource): Schema {
  const properties: Schema = { ...META };
  for (const [name, field] of Object.entries(res.def.fields)) properties[name] = fieldSchema(field);
  const required = Object.entries(res.def.fields).filter(([, f]) => f.required).map(([n]) => n);
  return { type: 'object', description: res.def.description, properties, ...(required.length ? { required } : {}) };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const errors = { default: { description: 'Error', ...json(ref('Error')) } };
const LIST_PARAMS = ['where', 'sort', 'projection', 'embedded', 'page', 'max_results'].map((name) => ({ name, in: 'query', required: false, schema: { type: name === 'page' || name === 'max_results' ? 'integer' : 'string' } }));

function op(summary: string, role: string, responses: Schema, extra: Schema = {}): Schema {
  return { summary, description: `Role: ${role} or higher.`, security: [{ bearer: [] }], responses: { ...responses, ...errors }, ...extra };
}

function resourcePaths(res: CompiledResource): Record<string, Schema> {
  const m = res.def.methods;
  const coll: Schema = {};
  const item: Schema = {};
  const envelope = { type: 'object', properties: { _items: { type: 'array', items: ref(res.name) }, _links: { type: 'object' }, _meta: { type: 'object' } } };
  const body = { requestBody: json(ref(res.name)) };
  if (m.list) coll.get = op(`List ${res.name}`, m.list, { 200: { description: 'A page', ...json(envelope) } }, { parameters: LIST_PARAMS });
  if (m.create) coll.post = op(`Create ${res.name}`, m.create, { 201: { description: 'Created', ...json(ref('WriteResponse')) } }, body);
  if (m.updateByBody) coll.put = op(`Change the ${res.itemTitle} named by _id in the body`, m.updateByBody, { 200: { description: 'Changed', ...json(ref('WriteResponse')) } }, body);
  if (m.deleteMany) coll.delete = op(`Delete every ${res.itemTitle} matching where`, m.deleteMany, { 204: { description: 'Deleted' } });
  const idParam = { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] };
  if (m.get) item.get = op(`Get one ${res.itemTitle}`, m.get, { 200: { description: 'The item', ...json(ref(res.name)) }, 304: { description: 'Not modified' } });
  if (m.patch) item.patch = op(`Change fields of a ${res.itemTitle}`, m.patch, { 200: { description: 'Changed', ...json(ref('WriteResponse')) } }, body);
  if (m.replace) item.put = op(`Replace a ${res.itemTitle}`, m.replace, { 200: { description: 'Replaced', ...json(ref('WriteResponse')) } }, body);
  if (m.delete) item.delete = op(`Delete a ${res.itemTitle}`, m.delete, { 204: { description: 'Deleted' } });
  const paths: Record<string, Schema> = {};
  if (Object.keys(coll).length) paths[`/api/${res.name}`] = coll;
  if (Object.keys(item).length) paths[`/api/${res.name}/{id}`] = { ...idParam, ...item };
  for (const route of res.def.routes ?? []) addRoute(paths, `/api/${res.name}`, route, res.name);
  return paths;
}

/** The JSON Schema of a declared Zod schema (what it accepts, or what it produces). */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
  return rest;
}

/** What a route answers: its declared response schema, the resource it renders, or no content. */
function routeResponses(route: RouteSpec, own: string | undefined): Schema {
  if (route.response) return { 200: { description: 'OK', ...json(jsonSchemaOf(route.response, 'output')) } };
  if (route.noContent) return { 204: { description: 'No content' } };
  const resource = route.renders?.resource ?? own;
  if (route.renders === undefined || resource === undefined) return { 200: { description: 'OK' } };
  if (route.renders.as === 'write') return { 200: { description: 'Written', ...json(ref('WriteResponse')) } };
  const envelope = { type: 'object', properties: { _items: { type: 'array', items: ref(resource) }, _links: { type: 'object' }, _meta: { type: 'object' } } };
  return { 200: { description: 'OK', ...json(route.renders.as === 'list' ? envelope : ref(resource)) } };
}

/** Adds one declared route (custom or of a route group) under `base`. */
function addRoute(paths: Record<string, Schema>, base: string, route: RouteSpec, own?: string): void {
  const path = `${base}${route.path.replace(/:(\w+)/g, '{$1}')}`;
  const parameters: Schema[] = [...route.path.matchAll(/:(\w+)/g)].map((mm) => ({ name: mm[1], in: 'path', required: true, schema: { type: 'string' } }));
  const query = route.query ? jsonSchemaOf(route.query, 'input') : undefined;
  const queryProps = (query?.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(query?.required) ? (query.required as string[]) : []);
  for (const [name, schema] of Object.entries(queryProps)) parameters.push({ name, in: 'query', required: required.has(name), schema });
  const extra: Schema = parameters.length ? { parameters } : {};
  if (route.body) extra.requestBody = json(jsonSchemaOf(route.body, 'input'));
  const operation = op(route.summary, route.role, routeResponses(route, own), extra);
  if (route.description) operation.description = `${route.description} ${String(operation.description)}`;
  paths[path] = { ...(paths[path] ?? {}), [route.method]: operation };
}

/** The OpenAPI document of every registered resource. */
export function openApiDocument(registry: Registry, info: { title: string; version: string }): Schema {
  const schemas: Schema = {
    Error: { type: 'object', properties: { _status: { const: 'ERR' }, _error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } }, _issues: { type: 'object' } } },
    WriteResponse: { type: 'object', properties: { ...META, _status: { const: 'OK' } } },
  };
  let paths: Record<string, Schema> = {};
  for (const res of registry.resources.values()) {
    schemas[res.name] = resourceSchema(res);
    paths = { ...paths, ...resourcePaths(res) };
  }
  for (const group of registry.groups.values()) for (const route of group.routes) addRoute(paths, `/api/${group.base}`, route);
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'Eve-compatible REST API of the fleet. Authenticate with Authorization: Bearer <token>.' },
    paths,
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}
