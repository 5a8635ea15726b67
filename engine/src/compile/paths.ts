/**
 * The path index of a resource: every dotted path a query may name, with its field and whether it
 * lies inside an array. `where`, `sort`, `projection`, the store spec and secret masking read it.
 */
import type { Field, Fields } from '../definition/fields';
import type { ScalarType } from '../store/port';

export interface PathInfo {
  readonly path: string;
  readonly field: Field;
  /** Some ancestor (or the field itself) is an array: the path is multi-valued. */
  readonly inArray: boolean;
  /** The field or an ancestor is secret. */
  readonly secret: boolean;
}

export interface PathIndex {
  readonly byPath: ReadonlyMap<string, PathInfo>;
  /** Paths of open objects: any sub-path below them is accepted (a host's `grain`). */
  readonly openPrefixes: readonly string[];
}

const SCALAR_KINDS = {
  string: 'string',
  ref: 'string',
  media: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  datetime: 'datetime',
  object: null,
  array: null,
} as const satisfies Record<Field['kind'], ScalarType | null>;

/** Meta fields every stored item has. */
export const META_FIELDS: Fields = {
  _id: { kind: 'string' },
  _created: { kind: 'datetime' },
  _updated: { kind: 'datetime' },
  _etag: { kind: 'string' },
};

/** Indexes every path of `fields` (plus the meta fields and `extra` top-level fields). */
export function indexPaths(fields: Fields, extra: Fields = {}): PathIndex {
  const byPath = new Map<string, PathInfo>();
  const openPrefixes: string[] = [];
  const visit = (name: string, field: Field, inArray: boolean, secret: boolean): void => {
    const isSecret = secret || field.secret === true;
    byPath.set(name, { path: name, field, inArray, secret: isSecret });
    if (field.kind === 'object') {
      if (field.open) openPrefixes.push(name);
      for (const [sub, subField] of Object.entries(field.fields))
        visit(`${name}.${sub}`, subField, inArray, isSecret);
    } else if (field.kind === 'array' && field.of.kind === 'object') {
      if (field.of.open) openPrefixes.push(name);
      for (const [sub, subField] of Object.entries(field.of.fields))
        visit(`${name}.${sub}`, subField, true, isSecret);
    }
  };
  for (const [name, field] of Object.entries({ ...META_FIELDS, ...extra, ...fields })) {
    if (field.writeOnly) continue;
    visit(name, field, field.kind === 'array', false);
  }
  return { byPath, openPrefixes };
}

/** Looks a dotted path up; paths under an open object resolve to `open`. */
export function resolvePath(index: PathIndex, path: string): PathInfo | 'open' | null {
  const info = index.byPath.get(path);
  if (info) return info;
  // Numeric segments address array elements (`gpus.0.model`): drop them and retry.
  const withoutIndexes = path
    .split('.')
    .filter((seg) => !/^\d+$/.test(seg))
    .join('.');
  if (withoutIndexes !== path && index.byPath.has(withoutIndexes))
    return index.byPath.get(withoutIndexes) ?? null;
  return index.openPrefixes.some((p) => path.startsWith(`${p}.`)) ? 'open' : null;
}

/** The scalar type a path may be pushed down as, or null (arrays, objects, multi-valued paths). */
export function scalarTypeOf(info: PathInfo): ScalarType | null {
  if (info.inArray) return null;
  return SCALAR_KINDS[info.field.kind];
}

/**
 * The element type of a list of scalars that no other list contains (`groups`, a host's list of
 * group ids), or null: a query on it matches elements (MongoDB's multikey semantics), which an
 * adapter may answer from an index of the elements.
 */
export function arrayElementTypeOf(info: PathInfo): ScalarType | null {
  const field = info.field;
  if (field.kind !== 'array') return null;
  // A top-level list marks itself `inArray`; a nested one carries its ancestors' flag only.
  if (info.path.includes('.') && info.inArray) return null;
  return SCALAR_KINDS[field.of.kind];
}

/** Dotted paths holding datetimes (arrays traversed), for revival by the store adapters. */
export function datetimePaths(index: PathIndex): string[] {
  const out: string[] = [];
  for (const info of index.byPath.values()) {
    if (info.field.kind === 'datetime') out.push(info.path);
    if (info.field.kind === 'array' && info.field.of.kind === 'datetime') out.push(info.path);
  }
  return out;
}

/** Dotted paths of secret fields (the outermost secret of each branch). */
export function secretPaths(index: PathIndex): string[] {
  return [...index.byPath.values()].filter((i) => i.field.secret === true).map((i) => i.path);
}
