/**
 * Field -> Zod schema, one table entry per field kind. Create/replace bodies enforce `required`
 * and apply defaults; patch bodies make every level of a sub-document optional (PATCH merges).
 */
import { z } from 'zod';
import type { Field, FieldKind, Fields } from '../definition/fields';
import { parseDate } from '../http/dates';

export type BodyMode = 'create' | 'patch';

const datetime = z.union([z.date(), z.string()]).transform((value, ctx) => {
  if (value instanceof Date) return value;
  const parsed = parseDate(value);
  if (parsed) return parsed;
  ctx.addIssue({ code: 'custom', message: 'must be a date: RFC 1123 or ISO 8601 (YYYY-MM-DD HH:MM is UTC)' });
  return z.NEVER;
});

type Builder = (field: Field, mode: BodyMode) => z.ZodType;

const builders = {
  string: (field) => {
    if (field.kind !== 'string') throw new Error('unreachable');
    if (field.enum) return z.enum(field.enum as [string, ...string[]]);
    let s = z.string();
    if (field.minLength !== undefined) s = s.min(field.minLength);
    if (field.maxLength !== undefined) s = s.max(field.maxLength);
    return s;
  },
  integer: (field) => {
    if (field.kind !== 'integer') throw new Error('unreachable');
    let n = z.number().int();
    if (field.min !== undefined) n = n.min(field.min);
    if (field.max !== undefined) n = n.max(field.max);
    if (field.enum) {
      const allowed = field.enum;
      return n.refine((v) => allowed.includes(v), { message: `must be one of ${allowed.join(', ')}` });
    }
    return n;
  },
  number: (field) => {
    if (field.kind !== 'number') throw new Error('unreachable');
    let n = z.number();
    if (field.min !== undefined) n = n.min(field.min);
    if (field.max !== undefined) n = n.max(field.max);
    return n;
  },
  boolean: () => z.boolean(),
  datetime: () => datetime,
  ref: () => z.string().min(1, 'must be an id'),
  media: () => z.string().min(1),
  array: (field, mode) => {
    if (field.kind !== 'array') throw new Error('unreachable');
    // Array elements are whole values even in a PATCH: an array is replaced, never merged.
    const list = z.array(fieldSchema(field.of, mode === 'patch' ? 'create' : mode));
    // A list of references names each item once, in the order first given.
    return field.of.kind === 'ref' ? list.transform((ids) => [...new Set(ids)]) : list;
  },
  object: (field, mode) => {
    if (field.kind !== 'object') throw new Error('unreachable');
    return objectSchema(field.fields, mode, field.open === true);
  },
} satisfies Record<FieldKind, Builder>;

/** The schema of one field value (nullable and defaults applied). */
export function fieldSchema(field: Field, mode: BodyMode): z.ZodType {
  let schema: z.ZodType = builders[field.kind](field, mode);
  if (field.nullable) schema = schema.nullable();
  return schema;
}

/** The schema of a sub-document or a whole body. */
export function objectSchema(fields: Fields, mode: BodyMode, open: boolean): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) {
    let schema = fieldSchema(field, mode);
    if (mode === 'patch' || !field.required) {
      const dflt = mode === 'create' && 'default' in field ? field.default : undefined;
      schema = dflt === undefined ? schema.optional() : schema.default(dflt as never);
    }
    shape[name] = schema;
  }
  return open ? z.looseObject(shape) : z.strictObject(shape);
}

/** Flattens Zod issues into Eve's `_issues` map: `{"a.b": "message"}`. */
export function issuesOf(error: z.ZodError): Record<string, string> {
  const issues: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues[[...issue.path, key].join('.')] = 'unknown field';
      continue;
    }
    const key = issue.path.length > 0 ? issue.path.join('.') : '_body';
    issues[key] ??= issue.code === 'invalid_type' && issue.input === undefined ? 'required field' : issue.message;
  }
  return issues;
}
