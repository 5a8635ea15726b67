/**
 * Definition in, frozen compiled resource out: everything the router, the operations and the
 * store need, computed once at boot. The input definition is never mutated.
 */
import type { z } from 'zod';
import type { AnyResourceDefinition, ResourceDefinition } from '../definition/define';
import { routeAnswerError } from '../definition/routes';
import type { DeleteRule, Field, Fields, RefField } from '../definition/fields';
import type { CollectionSpec, IndexSpec, ScalarType } from '../store/port';
import {
  arrayElementTypeOf,
  datetimePaths,
  indexPaths,
  scalarTypeOf,
  secretPaths,
  type PathIndex,
} from './paths';
import { objectSchema } from './zod';

/** A top-level reference field: source of `_links.related` and `embedded`. */
export interface Relation {
  readonly field: string;
  readonly to: string;
  readonly many: boolean;
}

/** A reference anywhere in the item (`addresses.file` too), with its integrity rules. */
export interface Reference {
  /** Dotted path of the field holding the id (or the array of ids). */
  readonly path: string;
  readonly to: string;
  readonly many: boolean;
  readonly nullable: boolean;
  readonly onDelete: DeleteRule;
  /** Ids written must name existing, visible items. */
  readonly exists: boolean;
}

export interface CompiledResource {
  readonly def: ResourceDefinition;
  readonly name: string;
  readonly itemTitle: string;
  readonly paths: PathIndex;
  /** Top-level stored fields (write-only ones excluded), in definition order. */
  readonly storedFields: readonly string[];
  readonly writeOnlyFields: readonly string[];
  readonly readonlyFields: ReadonlySet<string>;
  readonly patchable: ReadonlySet<string>;
  readonly hiddenInList: readonly string[];
  readonly secretPaths: readonly string[];
  readonly mediaFields: readonly string[];
  readonly relations: readonly Relation[];
  readonly references: readonly Reference[];
  readonly softDelete?: { readonly field: string; readonly param: string };
  /** Bodies of users (writable fields; patch: the patchable ones) and of the system principal (every field). */
  readonly validators: {
    readonly create: z.ZodType;
    readonly patch: z.ZodType;
    readonly systemCreate: z.ZodType;
    readonly systemPatch: z.ZodType;
  };
  readonly collection: CollectionSpec;
}

/** Eve's default item title: the name without its trailing `s`, capitalised. */
function defaultItemTitle(name: string): string {
  const singular = name.endsWith('s') ? name.slice(0, -1) : name;
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

function relationsOf(fields: Fields): Relation[] {
  const out: Relation[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field.writeOnly) continue;
    if (field.kind === 'ref') out.push({ field: name, to: field.to, many: false });
    if (field.kind === 'array' && field.of.kind === 'ref')
      out.push({ field: name, to: field.of.to, many: true });
  }
  return out;
}

function reference(path: string, ref: RefField, many: boolean, owner: string): Reference {
  const onDelete = ref.onDelete ?? 'restrict';
  if (onDelete === 'pull' && !many)
    throw new Error(`${owner}.${path}: onDelete 'pull' needs a list of references (f.array(f.ref(...)))`);
  if (onDelete === 'nullify' && (many || ref.nullable !== true))
    throw new Error(`${owner}.${path}: onDelete 'nullify' needs a single nullable reference`);
  return { path, to: ref.to, many, nullable: ref.nullable === true, onDelete, exists: ref.exists !== false };
}

/** Every reference of the item: top-level ones and those inside sub-documents (not inside lists of objects). */
function referencesOf(fields: Fields, owner: string, prefix = ''): Reference[] {
  const out: Reference[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field.writeOnly) continue;
    const path = `${prefix}${name}`;
    if (field.kind === 'ref') out.push(reference(path, field, false, owner));
    if (field.kind === 'array' && field.of.kind === 'ref') out.push(reference(path, field.of, true, owner));
    if (field.kind === 'object') out.push(...referencesOf(field.fields, owner, `${path}.`));
  }
  return out;
}

/**
 * Every read of a soft-delete resource is scoped by `{<field>: false}` (ops/resource-ops.ts), so
 * its indexes lead with that field: the scope is then an index equality, and counts and sorted
 * pages stay index-only instead of reading every document to test the flag.
 */
function scopedIndexes(indexes: readonly IndexSpec[], softDeleteField: string | undefined): IndexSpec[] {
  if (!softDeleteField) return [...indexes];
  const lead = [softDeleteField, 1] as const;
  // Unique indexes keep their keys: a leading flag would change what they make unique.
  return [
    { fields: [lead] },
    ...indexes.map((ix) => (ix.unique ? ix : { ...ix, fields: [lead, ...ix.fields] })),
  ];
}

/**
 * Every key of a declared index is `_id`, a declared scalar path outside lists (`grain.os`) or a
 * list of scalars (`groups`, a multikey index): what a query can be translated on. An index on
 * anything else would never serve a query.
 */
function checkIndexPaths(def: ResourceDefinition, indexable: Readonly<Record<string, ScalarType>>): void {
  for (const index of def.indexes ?? []) {
    for (const [path] of index.fields) {
      if (path !== '_id' && !(path in indexable))
        throw new Error(
          `${def.name}: index key "${path}" is not a declared scalar field (string, number, boolean, datetime or reference, outside lists) or list of them`,
        );
    }
  }
}

function collectionSpecOf(
  def: ResourceDefinition,
  paths: PathIndex,
  softDeleteField?: string,
): CollectionSpec {
  const scalarPaths: Record<string, ScalarType> = {};
  const notNullPaths: string[] = [];
  const arrayPaths: Record<string, ScalarType> = {};
  for (const info of paths.byPath.values()) {
    const elementType = arrayElementTypeOf(info);
    if (elementType) arrayPaths[info.path] = elementType;
    const type = scalarTypeOf(info);
    if (!type || info.path === '_id') continue;
    scalarPaths[info.path] = type;
    if (info.field.nullable !== true) notNullPaths.push(info.path);
  }
  if (softDeleteField) {
    scalarPaths[softDeleteField] = 'boolean';
    notNullPaths.push(softDeleteField);
  }
  checkIndexPaths(def, { ...scalarPaths, ...arrayPaths });
  const unique: IndexSpec[] = Object.entries(def.fields)
    .filter(([, f]) => f.unique)
    .map(([name]) => ({ fields: [[name, 1]], unique: true }));
  return Object.freeze({
    name: def.name,
    scalarPaths: Object.freeze(scalarPaths),
    notNullPaths: Object.freeze(notNullPaths),
    arrayPaths: Object.freeze(arrayPaths),
    datetimePaths: Object.freeze(datetimePaths(paths)),
    indexes: Object.freeze([...scopedIndexes(def.indexes ?? [], softDeleteField), ...unique]),
  });
}

/** Compiles one definition. Cross-resource checks (relations' targets) are the registry's. */
export function compileResource(definition: AnyResourceDefinition): CompiledResource {
  // The one place a definition loses its own field types: its hooks and routes are called with
  // items of this resource only, so they are safe to hold as the general form.
  const def = definition as ResourceDefinition;
  for (const route of def.routes ?? []) {
    const why = routeAnswerError(route);
    if (why) throw new Error(`${def.name}: ${why}`);
  }
  if (!/^[a-z][a-z0-9_]*$/.test(def.name))
    throw new Error(`resource name "${def.name}" must match [a-z][a-z0-9_]*`);
  const entries = Object.entries<Field>(def.fields);
  for (const [name] of entries) {
    if (name.startsWith('_') && name !== def.softDelete?.field) {
      // `_id`, `_created`, `_updated`, `_etag` belong to the engine (Eve refuses them in a schema too).
      if (['_id', '_created', '_updated', '_etag'].includes(name))
        throw new Error(`${def.name}.${name}: meta fields cannot be declared`);
    }
    if (name.includes('.') || name.includes('$'))
      throw new Error(`${def.name}.${name}: field names cannot contain "." or "$"`);
  }
  const softDelete = def.softDelete;
  const extra: Fields = softDelete ? { [softDelete.field]: { kind: 'boolean', readonly: true } } : {};
  const paths = indexPaths(def.fields, extra);
  const writable = entries.filter(([, f]) => !f.readonly).map(([n]) => n);
  const patchable = new Set<string>(def.patchable ?? writable);
  for (const name of patchable) {
    if (!(name in def.fields)) throw new Error(`${def.name}: patchable field "${name}" is not declared`);
  }
  const writableFields = Object.fromEntries(entries.filter(([, f]) => !f.readonly));
  const patchFields = Object.fromEntries(entries.filter(([n, f]) => !f.readonly && patchable.has(n)));
  // The system principal writes server-set fields too; they are validated like any other.
  const systemFields = Object.fromEntries(
    entries.map(([n, f]) => [n, f.readonly ? { ...f, readonly: false } : f]),
  );
  return Object.freeze({
    def,
    name: def.name,
    itemTitle: def.itemTitle ?? defaultItemTitle(def.name),
    paths,
    storedFields: Object.freeze(entries.filter(([, f]) => !f.writeOnly).map(([n]) => n)),
    writeOnlyFields: Object.freeze(entries.filter(([, f]) => f.writeOnly).map(([n]) => n)),
    readonlyFields: new Set(entries.filter(([, f]) => f.readonly).map(([n]) => n)),
    patchable,
    hiddenInList: Object.freeze(entries.filter(([, f]) => f.hiddenInList).map(([n]) => n)),
    secretPaths: Object.freeze(secretPaths(paths)),
    mediaFields: Object.freeze(entries.filter(([, f]) => f.kind === 'media').map(([n]) => n)),
    relations: Object.freeze(relationsOf(def.fields)),
    references: Object.freeze(referencesOf(def.fields, def.name)),
    ...(softDelete ? { softDelete } : {}),
    validators: Object.freeze({
      create: objectSchema(writableFields, 'create', false),
      patch: objectSchema(patchFields, 'patch', false),
      systemCreate: objectSchema(systemFields, 'create', false),
      systemPatch: objectSchema(systemFields, 'patch', false),
    }),
    collection: collectionSpecOf(def, paths, softDelete?.field),
  });
}
