/**
 * The generic operations of a resource (http/router.ts): list, create, update by body and delete
 * by `where` on the collection path; get, patch, replace and delete on the item path. Each with
 * the query parameters it reads, the bodies it accepts (JSON, forms, multipart for files), and
 * every answer.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { Role } from '../definition/fields';
import { BOOLEAN_PARAM_SCHEMA } from './components';
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
  const which =
    relations.length > 0
      ? `References of ${res.name}: ${relations.join(', ')}`
      : `${res.name} has no references`;
  return {
    name: 'embedded',
    in: 'query',
    required: false,
    description: `JSON object of references to replace by the items they name ({"field": 1}). ${which}. A single reference naming no visible item becomes null; such list entries are dropped`,
    schema: {
      type: 'string',
      ...(relations.length > 0 ? { examples: [`{"${relations[0] ?? ''}": 1}`] } : {}),
    },
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
      description: 'true or 1: soft-deleted items are shown too; false or 0 (the default): hidden',
      schema: BOOLEAN_PARAM_SCHEMA,
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
        anyOf: [
          ref(names.create),
          {
            type: 'array',
            items: ref(names.create),
            minItems: 1,
            maxItems: 1000,
            description: 'A bulk insert: all or nothing',
          },
        ],
      },
    };
    content['application/x-www-form-urlencoded'] = formContent(res, names.create);
  }
  if (res.mediaFields.length > 0) content['multipart/form-data'] = formContent(res, names.upload);
  return { required: true, content };
}

/** A form body: objects and lists are sent as JSON text (http/form.ts). */
function formContent(res: CompiledResource, schema: string): Schema {
  const structured = Object.entries(res.def.fields).filter(
    ([, f]) => f.kind === 'object' || f.kind === 'array',
  );
  const encoding = Object.fromEntries(
    structured.map(([name]) => [name, { contentType: 'application/json' }]),
  );
  return { schema: ref(schema), ...(structured.length > 0 ? { encoding } : {}) };
}

/** A PATCH / PUT body: JSON or a form. */
function writeBody(res: CompiledResource, schema: string): Schema {
  return {
    required: true,
    content: {
      'application/json': { schema: ref(schema) },
      'application/x-www-form-urlencoded': formContent(res, schema),
    },
  };
}

/** What one generic operation contributes, beside its id, role and errors. */
interface Described {
  readonly summary: string;
  readonly parameters?: Schema[];
  readonly body?: Schema;
  readonly responses: Record<string, Schema>;
  readonly paramRoles?: Role[];
}

const written = (res: CompiledResource): Record<string, Schema> => ({
  200: {
    description: 'Written',
    headers: { ETag: header('ETag') },
    content: json(ref(schemaNames(res).written)),
  },
});
const title = (res: CompiledResource): string => res.itemTitle.toLowerCase();

function listOp(res: CompiledResource): Described {
  const extra = readParams(res, 'list');
  const headers = { 'X-Total-Count': header('TotalCount'), 'Last-Modified': header('LastModified') };
  return {
    summary: `List ${res.name}`,
    parameters: [
      param('where'),
      param('sort'),
      param('projection'),
      embeddedParam(res),
      param('page'),
      param('max_results'),
      ...extra.params,
    ],
    responses: {
      200: { description: `A page of ${res.name}`, headers, content: json(ref(schemaNames(res).page)) },
    },
    paramRoles: extra.roles,
  };
}

function createOp(res: CompiledResource): Described {
  const item = ref(schemaNames(res).written);
  if (!jsonCreate(res)) {
    // Multipart only: one document per request, so one answer (no bulk union to narrow).
    return {
      summary: `Create a ${title(res)} (multipart/form-data, with its files)`,
      body: createBody(res),
      responses: {
        201: {
          description: 'Created',
          headers: { Location: header('Location'), ETag: header('ETag') },
          content: json(item),
        },
      },
    };
  }
  const bulk = {
    type: 'object',
    properties: { _status: { const: 'OK' }, _items: { type: 'array', items: item } },
    required: ['_status', '_items'],
    additionalProperties: false,
  };
  const created = {
    description: 'Created (a bulk insert of several documents: _items, in order)',
    headers: { Location: header('Location'), ETag: header('ETag') },
    content: json({ anyOf: [item, bulk] }),
  };
  return {
    summary: `Create ${title(res)} items (one, or a JSON array of them)`,
    body: createBody(res),
    responses: { 201: created },
  };
}

function getOp(res: CompiledResource): Described {
  const extra = readParams(res, 'get');
  const media = res.mediaFields.length > 0;
  const ok = {
    description: `The ${title(res)}`,
    headers: { ETag: header('ETag'), 'Last-Modified': header('LastModified') },
    content: json(ref(schemaNames(res).item)),
  };
  // Items with media fields are never 304: a cached copy would keep expired links (http/api.ts).
  const responses: Record<string, Schema> = media
    ? { 200: ok }
    : { 200: ok, 304: { description: 'Not modified: the cached copy is current' } };
  const conditional = media ? [] : [param('IfNoneMatch'), param('IfModifiedSince')];
  return {
    summary: `Get one ${title(res)}`,
    parameters: [param('projection'), embeddedParam(res), ...extra.params, ...conditional],
    responses,
    paramRoles: extra.roles,
  };
}

/** The generic operations, by method of the definition: where each is mounted, how it is named, what it is. */
const OPERATIONS: Readonly<
  Record<
    ResourceOperation,
    {
      at: 'collection' | 'item';
      verb: string;
      id: (item: string, plural: string) => string;
      describe: (res: CompiledResource) => Described;
    }
  >
> = {
  list: { at: 'collection', verb: 'get', id: (_i, plural) => `list${plural}`, describe: listOp },
  create: { at: 'collection', verb: 'post', id: (item) => `create${item}`, describe: createOp },
  updateByBody: {
    at: 'collection',
    verb: 'put',
    id: (item) => `update${item}`,
    describe: (res) => ({
      summary: `Change the ${title(res)} named by _id in the body (merged as PATCH)`,
      parameters: [param('IfMatch')],
      body: writeBody(res, schemaNames(res).update),
      responses: written(res),
    }),
  },
  deleteMany: {
    at: 'collection',
    verb: 'delete',
    id: (_i, plural) => `delete${plural}`,
    describe: (res) => ({
      summary: `Delete every ${title(res)} matching where (required)`,
      parameters: [param('where')],
      responses: { 204: { description: 'Deleted', headers: { 'X-Deleted-Count': header('DeletedCount') } } },
    }),
  },
  get: { at: 'item', verb: 'get', id: (item) => `get${item}`, describe: getOp },
  patch: {
    at: 'item',
    verb: 'patch',
    id: (item) => `patch${item}`,
    describe: (res) => ({
      summary: `Change fields of a ${title(res)} (sub-documents merged)`,
      parameters: [param('IfMatch')],
      body: writeBody(res, schemaNames(res).patch),
      responses: written(res),
    }),
  },
  replace: {
    at: 'item',
    verb: 'put',
    id: (item) => `replace${item}`,
    describe: (res) => ({
      summary: `Replace a ${title(res)}`,
      parameters: [param('IfMatch')],
      body: writeBody(res, schemaNames(res).replace),
      responses: written(res),
    }),
  },
  delete: {
    at: 'item',
    verb: 'delete',
    id: (item) => `delete${item}`,
    describe: (res) => ({
      summary: `Delete a ${title(res)}${res.softDelete ? ' (soft delete: hidden, kept)' : ''}`,
      parameters: [param('IfMatch')],
      responses: { 204: { description: 'Deleted' } },
    }),
  },
};

/** The generic operations of `res`, by path (`/api/<name>`, `/api/<name>/{id}`) and method. */
export function resourcePaths(res: CompiledResource, registry: Registry): Record<string, Schema> {
  const names = schemaNames(res);
  const built: Record<'collection' | 'item', Record<string, Schema>> = { collection: {}, item: {} };
  for (const [kind, spec] of Object.entries(OPERATIONS) as [
    ResourceOperation,
    (typeof OPERATIONS)[ResourceOperation],
  ][]) {
    const role = res.def.methods[kind];
    if (role === undefined) continue;
    const d = spec.describe(res);
    built[spec.at][spec.verb] = operation({
      operationId: spec.id(names.item, pascal(res.name)),
      tag: res.name,
      summary: d.summary,
      role,
      ...(d.parameters ? { parameters: d.parameters } : {}),
      ...(d.body ? { requestBody: d.body } : {}),
      responses: d.responses,
      errors: resourceErrors({
        res,
        op: kind,
        role,
        registry,
        ...(d.paramRoles ? { paramRoles: d.paramRoles } : {}),
      }),
      bulk: kind === 'create' && jsonCreate(res),
    });
  }
  const paths: Record<string, Schema> = {};
  if (Object.keys(built.collection).length > 0) paths[`/api/${res.name}`] = built.collection;
  if (Object.keys(built.item).length > 0)
    paths[`/api/${res.name}/{id}`] = {
      parameters: [pathParameter('id', `The ${title(res)}'s _id`)],
      ...built.item,
    };
  return paths;
}
