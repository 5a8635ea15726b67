/**
 * Compiles a resource into a Mongoose schema: the declarative mirror of a collection in MongoDB
 * (types, required, defaults, references, unique and secondary indexes, secrets `select: false`).
 *
 * The adapter itself writes through the raw driver (see store.ts for why); the schema is the
 * model's definition for tooling and migrations, and the no-server tests read it to prove that
 * each definition maps to the Mongoose types an operator would expect.
 */
import mongoose from 'mongoose';
import type { CompiledResource } from '../../compile/compile';
import type { Field, FieldKind, Fields } from '../../definition/fields';
import { indexKeys, type IndexPlan } from './plan';

/** One path's Mongoose options (`{type: String, required: true, ...}`), built from a field. */
type PathDef = Record<string, unknown>;
/** A field kind's path builder, given that kind's field descriptor. */
type PathBuilder<K extends FieldKind> = (field: Extract<Field, { kind: K }>) => PathDef;

const { Mixed } = mongoose.Schema.Types;

/** `null` passes (nullable fields), anything else must be a whole number. */
function isIntegerOrNull(value: unknown): boolean {
  return value === null || value === undefined || Number.isInteger(value);
}

/** Copies the optional keys that are set, renamed to Mongoose's spelling. */
function defined(pairs: Record<string, unknown>): PathDef {
  return Object.fromEntries(Object.entries(pairs).filter(([, v]) => v !== undefined));
}

/**
 * Field kind -> Mongoose type. Ids and references are strings (never ObjectId casts);
 * media fields hold the 24-hex GridFS file id as a string.
 */
const KIND_TO_MONGOOSE = {
  string: (field) =>
    defined({
      type: String,
      enum: field.enum && [...field.enum],
      minlength: field.minLength,
      maxlength: field.maxLength,
    }),
  integer: (field) =>
    defined({
      type: Number,
      enum: field.enum && [...field.enum],
      min: field.min,
      max: field.max,
      validate: { validator: isIntegerOrNull, message: '{PATH} must be an integer' },
    }),
  number: (field) => defined({ type: Number, min: field.min, max: field.max }),
  boolean: () => ({ type: Boolean }),
  datetime: () => ({ type: Date }),
  object: (field) => {
    // An open object with no declared sub-fields (a host's `grain`) is free-form.
    if (field.open === true && Object.keys(field.fields).length === 0) return { type: Mixed };
    return { type: subSchema(field.fields, field.open === true) };
  },
  array: (field) => ({ type: [elementOf(field.of)] }),
  ref: (field) => ({ type: String, ref: field.to }),
  media: () => ({ type: String }),
} satisfies { readonly [K in FieldKind]: PathBuilder<K> };

/** The kind's builder, called with its own descriptor (the table is keyed by the same `kind`). */
function typeOf(field: Field): PathDef {
  const build = KIND_TO_MONGOOSE[field.kind] as (f: Field) => PathDef;
  return build(field);
}

/** An array element: its type without the path-level options (required, default, select). */
function elementOf(field: Field): unknown {
  const def = typeOf(field);
  return def.type instanceof mongoose.Schema ? def.type : def;
}

/** A field's full path definition: its type plus required, default, unique and secrecy. */
function pathOf(field: Field): PathDef {
  const def: PathDef = { ...typeOf(field) };
  // Mongoose's `required` also refuses null, so a nullable field is only checked by the validators.
  if (field.required === true && field.nullable !== true) def.required = true;
  if ('default' in field && field.default !== undefined) def.default = field.default;
  if (field.unique === true) def.unique = true;
  // Secrets (sealed at rest) are never read back by a model query unless asked for (`+path`).
  if (field.secret === true) def.select = false;
  return def;
}

/** The definitions of stored fields; write-only fields never reach the database. */
function pathsOf(fields: Fields): Record<string, PathDef> {
  const out: Record<string, PathDef> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.writeOnly !== true) out[name] = pathOf(field);
  }
  return out;
}

/**
 * A sub-document schema. Closed objects throw on undeclared keys like the top level; open ones
 * keep them (`strict: false`). No `_id` on sub-documents: they are values, not entities.
 */
function subSchema(fields: Fields, open: boolean): mongoose.Schema {
  return new mongoose.Schema(pathsOf(fields), {
    _id: false,
    id: false,
    minimize: false,
    strict: open ? false : 'throw',
  });
}

/** The meta paths every stored item has, and the soft-delete flag when the resource has one. */
function metaPaths(res: CompiledResource): Record<string, PathDef> {
  // Generated ids are 24-hex strings in ObjectId layout, like the ones the operations hand out.
  const generated =
    res.def.id !== 'natural' ? { default: () => new mongoose.mongo.ObjectId().toHexString() } : {};
  const meta: Record<string, PathDef> = {
    _id: { type: String, required: true, ...generated },
    _created: { type: Date },
    _updated: { type: Date },
    _etag: { type: String },
  };
  if (res.softDelete) meta[res.softDelete.field] = { type: Boolean };
  return meta;
}

/**
 * Compiles a resource into a Mongoose schema named after its collection.
 *
 * `strict: 'throw'`: the Zod validators already refuse undeclared fields before anything reaches the
 * store, so an undeclared path arriving at a model is a programming error to surface, not data to
 * drop silently (`strict: true` would). Open objects are the declared exception (`strict: false`).
 * `autoIndex`/`autoCreate` are off: the adapter creates indexes explicitly in `ensureCollection`,
 * additively, so a mismatch is logged instead of failing a model at first use.
 */
export function compileMongooseSchema(res: CompiledResource): mongoose.Schema {
  const schema = new mongoose.Schema(
    { ...metaPaths(res), ...pathsOf(res.def.fields) },
    {
      collection: res.name,
      versionKey: false,
      strict: 'throw',
      // Query paths are checked against the definition by the query layer (open objects included).
      strictQuery: false,
      minimize: false,
      id: false,
      autoIndex: false,
      autoCreate: false,
    },
  );
  const fieldUnique = new Set(
    Object.entries(res.def.fields)
      .filter(([, field]) => field.unique === true && field.writeOnly !== true)
      .map(([name]) => JSON.stringify([[name, 1]])),
  );
  for (const index of res.collection.indexes) {
    // Unique fields already carry `unique: true` on their path, which declares the same index.
    if (index.unique === true && fieldUnique.has(JSON.stringify(index.fields))) continue;
    schema.index(indexKeys(index), index.unique === true ? { unique: true } : {});
  }
  return schema;
}

/** A compiled schema's declared indexes (`schema.indexes()`) as `createIndex` entries. */
export function schemaIndexPlans(schema: mongoose.Schema): IndexPlan[] {
  return schema.indexes().map(([fields, options]) => ({
    key: Object.fromEntries(
      Object.entries(fields).map(([path, dir]) => [path, dir === -1 ? -1 : 1] as const),
    ),
    ...(options.unique === true ? { unique: true as const } : {}),
  }));
}
