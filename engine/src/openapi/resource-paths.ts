/**
 * The generic operations of a resource (http/router.ts): list, create, update by body and delete
 * by `where` on the collection path; get, patch, replace and delete on the item path. Each with
 * the query parameters it reads, the bodies it accepts (JSON, forms, multipart for files), and
 * every answer.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { Role } from '../definition/fields';
import { componentRef, json, pascal, ref, schemaNames, type Schema } from './schema';
import { resourceErrors, type ResourceOperation } from './errors';
import { operation, pathParameter } from './operation';
import { jsonCreate } from './resource-schemas';
import { queryParamsOf } from './query-params';

const param = (name: string): Schema => componentRef('parameters', name);
const header = (name: string): Schema => componentRef('headers', name);

/** `embedded` of `res`: which references it may expand. */
function embeddedParam(res: CompiledResource): Schema {
  const relations = res.relations.map((r) => r.field);
  const which = relations.length > 0 ? `References of ${res.name}: ${relations.join(', ')}` : `${res.name} has no references`;
  return {
    name: 'embedded',
    in: 'query',
    required: false,
    description: `JSON object of references to replace by the items they name ({"field": 1}). ${which}. A single reference naming no visible item becomes null; such list entries are dropped`,
    schema: { type: 'string', ...(relations.length > 0 ? { examples: [`{"${relations[0] ?? ''}": 1}`] } : {}) },
  };
}

/** The parameters a GET of `res` reads besides the common ones: the soft-delete flag, and what its hooks read. */
function readParams(res: CompiledResource, on: 'list' | 'get'): { params: Schema[]; roles: Role[] } {
  const params: Schema[] = [];
  if (res.softDelete) {
    params.push({
      name: res.softDelete.param,
      in: 'query',
      required: false,
      description: 'Present and not 0/false: soft-deleted items are shown too',
      schema: { type: 'string', examples: ['1'] },
    });
  }
  const roles: Role[] = [];
  for (const p of queryParamsOf(res, on)) {
    params.push(p.parameter);
    if (p.role) roles.push(p.role);
  }
  return { params, roles };
}

/** The bodies a create accepts: JSON (one document or an array), a form, multipart with the files. */
function createBody(res: CompiledResource): Schema {
  const names = schemaNames(res);
  const content: Schema = {};
  if (jsonCreate(res)) {
    content['application/json'] = {
      schema: {
        anyOf: [ref(names.create), { type: 'array', items: ref(names.create), minItems: 1, maxItems: 1000, description: 'A bulk insert: all or nothing' }],
      },
    };
    content['application/x-www-form-urlencoded'] = formContent(res, names.create);
  }
  if (res.mediaFields.length > 0) content['multipart/form-data'] = formContent(res, names.upload);
  return { required: true, content };
}

/** A form body: objects and lists are sent as JSON text (http/form.ts). */
function formContent(res: CompiledResource, schema: string): Schema {
  const structured = Object.entries(res.def.fields).filter(([, f]) => f.kind === 'object' || f.kind === 'array');
  const encoding = Object.fromEntries(structured.map(([name]) => [name, { contentType: 'application/json' }]));
  return { schema: ref(schema), ...(structured.length > 0 ? { encoding } : {}) };
}

/** A PATCH / PUT body: JSON or a form. */
function writeBody(res: CompiledResource, schema: string): Schema {
  return { required: true, content: { 'application/json': { schema: ref(schema) }, 'application/x-www-form-urlencoded': formContent(res, schema) } };
}

interface Built {
  readonly collection: Record<string, Schema>;
  readonly item: Record<string, Schema>;
}

/** The generic operations of `res`, by path (`/api/<name>`, `/api/<name>/{id}`) and method. */
export function resourcePaths(res: CompiledResource, registry: Registry): Record<string, Schema> {
  const names = schemaNames(res);
  const m = res.def.methods;
  const plural = pascal(res.name);
  const built: Built = { collection: {}, item: {} };
  const errors = (op: ResourceOperation, role: Role, paramRoles: Role[] = []): number[] => resourceErrors({ res, op, role, registry, paramRoles });
  const op = (o: {
    id: string;
    summary: string;
    role: Role;
    kind: ResourceOperation;
    parameters?: Schema[];
    body?: Schema;
    responses: Record<string, Schema>;
    paramRoles?: Role[];
  }): Schema =>
    operation({
      operationId: o.id,
      tag: res.name,
      summary: o.summary,
      role: o.role,
      ...(o.parameters ? { parameters: o.parameters } : {}),
      ...(o.body ? { requestBody: o.body } : {}),
      responses: o.responses,
      errors: errors(o.kind, o.role, o.paramRoles),
      bulk: o.kind === 'create',
    });
  const written = { description: 'Written', headers: { ETag: header('ETag') }, content: json(ref(names.written)) };
  const ifMatch = [param('IfMatch')];

  if (m.list) {
    const extra = readParams(res, 'list');
    const parameters = [param('where'), param('sort'), param('projection'), embeddedParam(res), param('page'), param('max_results'), ...extra.params];
    const responses = {
      200: {
        description: `A page of ${res.name}`,
        headers: { 'X-Total-Count': header('TotalCount'), 'Last-Modified': header('LastModified') },
        content: json(ref(names.page)),
      },
    };
    built.collection.get = op({ id: `list${plural}`, summary: `List ${res.name}`, role: m.list, kind: 'list', parameters, responses, paramRoles: extra.roles });
  }
  if (m.create) {
    const bulk = {
      type: 'object',
      properties: { _status: { const: 'OK' }, _items: { type: 'array', items: ref(names.written) } },
      required: ['_status', '_items'],
      additionalProperties: false,
    };
    const responses = {
      201: {
        description: 'Created (a bulk insert of several documents: _items, in order)',
        headers: { Location: header('Location') },
        content: json({ anyOf: [ref(names.written), bulk] }),
      },
    };
    built.collection.post = op({
      id: `create${names.item}`,
      summary: `Create ${res.itemTitle.toLowerCase()} items (one, or a JSON array of them)`,
      role: m.create,
      kind: 'create',
      body: createBody(res),
      responses,
    });
  }
  if (m.updateByBody) {
    built.collection.put = op({
      id: `update${names.item}`,
      summary: `Change the ${res.itemTitle.toLowerCase()} named by _id in the body (merged as PATCH)`,
      role: m.updateByBody,
      kind: 'updateByBody',
      parameters: ifMatch,
      body: writeBody(res, names.update),
      responses: { 200: written },
    });
  }
  if (m.deleteMany) {
    const where = { ...param('where') };
    const responses = { 204: { description: 'Deleted', headers: { 'X-Deleted-Count': header('DeletedCount') } } };
    built.collection.delete = op({
      id: `delete${plural}`,
      summary: `Delete every ${res.itemTitle.toLowerCase()} matching where (required)`,
      role: m.deleteMany,
      kind: 'deleteMany',
      parameters: [where],
      responses,
    });
  }
  if (m.get) {
    const extra = readParams(res, 'get');
    const conditional = res.mediaFields.length > 0 ? [] : [param('IfNoneMatch'), param('IfModifiedSince')];
    const ok = {
      description: `The ${res.itemTitle.toLowerCase()}`,
      headers: { ETag: header('ETag'), 'Last-Modified': header('LastModified') },
      content: json(ref(names.item)),
    };
    // Items with media fields are never 304: a cached copy would keep expired links (http/api.ts).
    const responses: Record<string, Schema> =
      res.mediaFields.length > 0 ? { 200: ok } : { 200: ok, 304: { description: 'Not modified: the cached copy is current' } };
    built.item.get = op({
      id: `get${names.item}`,
      summary: `Get one ${res.itemTitle.toLowerCase()}`,
      role: m.get,
      kind: 'get',
      parameters: [param('projection'), embeddedParam(res), ...extra.params, ...conditional],
      responses,
      paramRoles: extra.roles,
    });
  }
  if (m.patch)
    built.item.patch = op({
      id: `patch${names.item}`,
      summary: `Change fields of a ${res.itemTitle.toLowerCase()} (sub-documents merged)`,
      role: m.patch,
      kind: 'patch',
      parameters: ifMatch,
      body: writeBody(res, names.patch),
      responses: { 200: written },
    });
  if (m.replace)
    built.item.put = op({
      id: `replace${names.item}`,
      summary: `Replace a ${res.itemTitle.toLowerCase()}`,
      role: m.replace,
      kind: 'replace',
      parameters: ifMatch,
      body: writeBody(res, names.replace),
      responses: { 200: written },
    });
  if (m.delete)
    built.item.delete = op({
      id: `delete${names.item}`,
      summary: `Delete a ${res.itemTitle.toLowerCase()}${res.softDelete ? ' (soft delete: hidden, kept)' : ''}`,
      role: m.delete,
      kind: 'delete',
      parameters: ifMatch,
      responses: { 204: { description: 'Deleted' } },
    });

  const paths: Record<string, Schema> = {};
  if (Object.keys(built.collection).length > 0) paths[`/api/${res.name}`] = built.collection;
  if (Object.keys(built.item).length > 0)
    paths[`/api/${res.name}/{id}`] = { parameters: [pathParameter('id', `The ${res.itemTitle.toLowerCase()}'s _id`)], ...built.item };
  return paths;
}
