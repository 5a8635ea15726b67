/**
 * The schemas of one resource: the item as GETs render it, as embedded in another item, its
 * `_links`, a write's answer, a page, and the bodies each write method accepts.
 *
 * Any field may be left out by `projection` (and list-hidden fields are left out of lists unless
 * projected), so no declared field is `required` in a response: only the meta fields and `_links`,
 * which every rendered item carries, are. Bodies require what the definition requires.
 */
import type { CompiledResource } from '../compile/compile';
import type { Registry } from '../compile/registry';
import type { Field, Fields } from '../definition/fields';
import { META_PROPERTIES, META_REQUIRED } from './components';
import { objectSchema, type FieldContext, type FieldMode } from './fields';
import { ref, schemaNames, type Schema } from './schema';

/** The context of a resource's top-level fields in `mode`. */
export function fieldContext(registry: Registry, mode: FieldMode, files = false): FieldContext {
  return { mode, topLevel: true, files, embeddedName: (name) => schemaNames(registry.get(name)).embedded };
}

/** The fields an item is rendered with (stored ones, and the soft-delete flag). */
function renderedFields(res: CompiledResource): Fields {
  const soft: Fields = res.softDelete
    ? {
        [res.softDelete.field]: {
          kind: 'boolean',
          readonly: true,
          description: 'Hidden by DELETE; shown only with ' + res.softDelete.param,
        },
      }
    : {};
  return { ...res.def.fields, ...soft };
}

function itemDescription(res: CompiledResource): string {
  const hidden =
    res.hiddenInList.length > 0
      ? ` (${res.hiddenInList.join(', ')}: in item GETs, and in lists only when a projection asks for ${res.hiddenInList.length > 1 ? 'them' : 'it'})`
      : '';
  return `${res.def.description} Every field is present unless a projection leaves it out${hidden}; the meta fields and _links always are.`;
}

/** The item as rendered by the serializer (http/render), with `_links`. */
function itemSchema(res: CompiledResource, registry: Registry, embedded: boolean): Schema {
  const names = schemaNames(res);
  const fields = Object.fromEntries(
    Object.entries(renderedFields(res)).filter(([n]) => !(embedded && res.hiddenInList.includes(n))),
  );
  const body = objectSchema(fields, fieldContext(registry, embedded ? 'embedded' : 'read'), false);
  const properties = {
    ...META_PROPERTIES,
    ...(body.properties as Schema),
    ...(embedded ? {} : { _links: ref(names.links) }),
  };
  const description = embedded
    ? `${res.itemTitle} as embedded in another item (embedded=...): no _links, no list-hidden fields.`
    : itemDescription(res);
  return {
    type: 'object',
    description,
    properties,
    required: [...META_REQUIRED, ...(embedded ? [] : ['_links'])],
    additionalProperties: false,
  };
}

/** `_links.related`: one link per single reference, a list of links per list of references. */
function relatedSchema(res: CompiledResource): Schema {
  const properties: Schema = {};
  for (const rel of res.relations) {
    const link = { ...ref('Link'), description: `The ${rel.to} item ${rel.field} names` };
    properties[rel.field] = rel.many
      ? { type: 'array', items: ref('Link'), description: `The ${rel.to} items ${rel.field} names` }
      : link;
  }
  return {
    type: 'object',
    description: 'Links to the items the references name (only references that have a value)',
    properties,
    additionalProperties: false,
  };
}

function linksSchema(res: CompiledResource): Schema {
  const names = schemaNames(res);
  return {
    type: 'object',
    description: 'self always; parent and collection on item GETs; related when a reference has a value',
    properties: {
      self: {
        ...ref('Link'),
        examples: [{ title: res.itemTitle, href: `${res.name}/6566d7e2a1b2c3d4e5f60718` }],
      },
      parent: { ...ref('Link'), examples: [{ title: 'home', href: '/' }] },
      collection: { ...ref('Link'), examples: [{ title: res.name, href: res.name }] },
      ...(res.relations.length > 0 ? { related: ref(names.related) } : {}),
    },
    required: ['self'],
    additionalProperties: false,
  };
}

/** A successful write's answer (Eve's bandwidth-saver shape, http/render, mode `write`). */
function writtenSchema(res: CompiledResource): Schema {
  return {
    type: 'object',
    properties: { ...META_PROPERTIES, _links: ref(schemaNames(res).links), _status: { const: 'OK' } },
    required: [...META_REQUIRED, '_links', '_status'],
    additionalProperties: false,
  };
}

/**
 * A write body: create / replace (`create` mode) or patch; natural ids may be given on create.
 * The fields a body may not carry (server-set ones; on PATCH, those outside `patchable`) are
 * listed `readOnly`: sending one is a 422, and typed clients refuse it (openapi-typescript's
 * read/write markers).
 */
function bodySchema(
  res: CompiledResource,
  registry: Registry,
  mode: 'create' | 'patch',
  o: { files?: boolean; id?: 'optional' | 'required' } = {},
): Schema {
  const writable = (name: string, field: Field): boolean =>
    !field.readonly && (mode === 'create' || res.patchable.has(name));
  const fields = Object.fromEntries(Object.entries(res.def.fields).filter(([n, f]) => writable(n, f)));
  const body = objectSchema(fields, fieldContext(registry, mode, o.files === true), false);
  const refused = Object.entries(res.def.fields).filter(([n, f]) => !writable(n, f) && !f.writeOnly);
  const why = (f: Field): string =>
    f.readonly ? 'Server-set: refused (422) in a body' : 'Not changed by PATCH: refused (422)';
  const properties: Schema = {
    ...(o.id === undefined ? {} : { _id: { type: 'string', minLength: 1, description: 'The item id' } }),
    ...(body.properties as Schema),
    ...Object.fromEntries(refused.map(([n, f]) => [n, { readOnly: true, description: why(f) }])),
  };
  const required = [
    ...((body.required as string[] | undefined) ?? []),
    ...(o.id === 'required' ? ['_id'] : []),
  ];
  const { required: _old, ...rest } = body;
  return { ...rest, properties, ...(required.length > 0 ? { required } : {}) };
}

/** Whether a create must name its id (`natural` ids without `idFrom`), may (natural), or cannot. */
function createId(res: CompiledResource): { id?: 'optional' | 'required' } {
  if (res.def.id !== 'natural') return {};
  return { id: res.def.idFrom === undefined ? 'required' : 'optional' };
}

/** Whether a create can come as JSON or a form: media fields come only as files (http/handlers.ts writeBody). */
export function jsonCreate(res: CompiledResource): boolean {
  return !res.mediaFields.some((name) => res.def.fields[name]?.required === true);
}

/** Every schema of `res`, by component name. */
export function resourceSchemas(res: CompiledResource, registry: Registry): Record<string, Schema> {
  const names = schemaNames(res);
  const m = res.def.methods;
  const out: Record<string, Schema> = {
    [names.item]: itemSchema(res, registry, false),
    [names.embedded]: itemSchema(res, registry, true),
    [names.links]: linksSchema(res),
    [names.written]: writtenSchema(res),
    [names.page]: {
      type: 'object',
      description: `A page of ${res.name}`,
      properties: {
        _items: { type: 'array', items: ref(names.item) },
        _links: ref('CollectionLinks'),
        _meta: ref('Meta'),
      },
      required: ['_items', '_links', '_meta'],
      additionalProperties: false,
    },
  };
  if (res.relations.length > 0) out[names.related] = relatedSchema(res);
  if (m.create && jsonCreate(res)) out[names.create] = bodySchema(res, registry, 'create', createId(res));
  if (m.create && res.mediaFields.length > 0)
    out[names.upload] = bodySchema(res, registry, 'create', { ...createId(res), files: true });
  if (m.replace) out[names.replace] = bodySchema(res, registry, 'create');
  if (m.patch) out[names.patch] = bodySchema(res, registry, 'patch');
  if (m.updateByBody) out[names.update] = bodySchema(res, registry, 'patch', { id: 'required' });
  return out;
}
