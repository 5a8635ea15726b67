/**
 * Field -> Zod schema, one table entry per field kind, and Zod issues -> `_issues` messages, one
 * table per direction. Create/replace bodies enforce `required` and apply defaults; patch bodies
 * make every level of a sub-document optional (PATCH merges).
 *
 * Messages are ours, never the library's text, in Cerberus' wording where Eve has one
 * (`cerberus/errors.py` BasicErrorHandler: "required field", "must be of string type", "min length
 * is 1", "unallowed value x"; Cerberus' `BasicErrorHandler`, as Eve 2.3.1 uses it). Every scalar checks its type first, so a wrong
 * type says so instead of a later rule (Cerberus drops the remaining rules of a field whose type fails).
 */
import { z } from 'zod';
import type { Field, FieldKind, Fields } from '../definition/fields';
import { parseDate } from '../http/dates';

export type BodyMode = 'create' | 'patch';

/** The one table of `_issues` messages, by kind; `{name}` placeholders are filled by {@link issueMessage}. */
export const ISSUE_MESSAGES = {
  required: 'required field',
  null: 'null value not allowed',
  type: 'must be of {type} type',
  enum: 'unallowed value {value}',
  minLength: 'min length is {limit}',
  maxLength: 'max length is {limit}',
  exactLength: 'length must be {limit}',
  minValue: 'min value is {limit}',
  maxValue: 'max value is {limit}',
  above: 'must be greater than {limit}',
  below: 'must be less than {limit}',
  multipleOf: 'must be a multiple of {limit}',
  date: 'must be a date: RFC 1123 or ISO 8601 (YYYY-MM-DD HH:MM is UTC)',
  regex: "value does not match regex '{pattern}'",
  format: 'must be a valid {format}',
  key: 'unallowed key {value}',
  element: 'one or more elements are invalid',
  unknown: 'unknown field',
  readOnly: 'field is read-only',
  notPatchable: 'field cannot be changed by PATCH',
  upload: 'must be uploaded as a file',
  invalid: 'invalid value',
  custom: '{message}',
} as const satisfies Record<string, string>;

export type IssueKind = keyof typeof ISSUE_MESSAGES;
type Params = Readonly<Record<string, string | number | bigint>>;

/** The message of an issue kind with its placeholders filled. */
export function issueMessage(kind: IssueKind, params: Params = {}): string {
  return ISSUE_MESSAGES[kind].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** Zod's `expected` in the words of our field kinds. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  int: 'integer',
  date: 'datetime',
  record: 'object',
  tuple: 'array',
  map: 'object',
  set: 'array',
};

/** A value quoted for a message: JSON, cut short (a message never carries a long input back). */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

type ZodIssue = z.core.$ZodIssue;
/** The format our datetime fields name in their issue (RFC 1123 or ISO 8601), apart from Zod's own `datetime`. */
const DATE_FORMAT = 'rfc1123-or-iso8601';
type Described = readonly [IssueKind, Params?];

/** Missing and null come first for every code: Zod reports both as a type (or union) failure. */
function absent(input: unknown): Described | null {
  if (input === undefined) return ['required'];
  return input === null ? ['null'] : null;
}

function bound(
  side: 'min' | 'max',
  issue: { origin: string; inclusive?: boolean; exact?: boolean },
  limit: number | bigint,
): Described {
  const sized = ['string', 'array', 'set', 'file'].includes(issue.origin);
  if (issue.exact === true) return ['exactLength', { limit }];
  if (sized) return [side === 'min' ? 'minLength' : 'maxLength', { limit }];
  if (issue.inclusive === false) return [side === 'min' ? 'above' : 'below', { limit }];
  return [side === 'min' ? 'minValue' : 'maxValue', { limit }];
}

/** The expected types a failed union named at its own level (`string or number`), if any. */
function unionTypes(errors: readonly (readonly ZodIssue[])[]): string | null {
  const names = new Set<string>();
  for (const branch of errors) {
    for (const inner of branch)
      if (inner.code === 'invalid_type' && inner.path.length === 0)
        names.add(TYPE_NAMES[inner.expected] ?? inner.expected);
  }
  return names.size > 0 ? [...names].join(' or ') : null;
}

/** Every Zod issue code -> its kind (and the values its message names). */
const DESCRIBE: { readonly [C in ZodIssue['code']]: (issue: Extract<ZodIssue, { code: C }>) => Described } = {
  invalid_type: (i) => absent(i.input) ?? ['type', { type: TYPE_NAMES[i.expected] ?? i.expected }],
  invalid_value: (i) => absent(i.input) ?? ['enum', { value: shown(i.input) }],
  too_small: (i) => bound('min', i, i.minimum),
  too_big: (i) => bound('max', i, i.maximum),
  not_multiple_of: (i) => ['multipleOf', { limit: i.divisor }],
  invalid_format: (i) => {
    if (i.format === DATE_FORMAT) return ['date'];
    return i.format === 'regex' && i.pattern !== undefined
      ? ['regex', { pattern: i.pattern }]
      : ['format', { format: i.format }];
  },
  unrecognized_keys: () => ['unknown'],
  invalid_union: (i) => {
    const types = unionTypes(i.errors);
    return absent(i.input) ?? (types ? ['type', { type: types }] : ['invalid']);
  },
  invalid_key: (i) => ['key', { value: shown(i.input) }],
  invalid_element: () => ['element'],
  // A refinement's own message is the author's words; Zod's default for one ("Invalid input") is not ours.
  custom: (i) =>
    i.message && i.message !== 'Invalid input' ? ['custom', { message: i.message }] : ['invalid'],
};

function describe(issue: ZodIssue): Described {
  return (DESCRIBE[issue.code] as (i: ZodIssue) => Described)(issue);
}

/** The type check a scalar starts with: `expected` names our kind whatever the input (Zod's `int` says "number" to a string). */
function typed(expected: string, test: (value: unknown) => boolean): z.ZodType {
  return z.any().superRefine((value: unknown, ctx) => {
    if (!test(value)) ctx.addIssue({ code: 'invalid_type', expected, input: value });
  });
}

const datetime = z.any().transform((value: unknown, ctx) => {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (typeof value !== 'string') {
    ctx.addIssue({ code: 'invalid_type', expected: 'date', input: value });
    return z.NEVER;
  }
  const parsed = parseDate(value);
  if (parsed) return parsed;
  ctx.addIssue({ code: 'invalid_format', format: DATE_FORMAT, input: value });
  return z.NEVER;
});

type Builder = (field: Field, mode: BodyMode) => z.ZodType;

const builders = {
  string: (field) => {
    if (field.kind !== 'string') throw new Error('unreachable');
    if (field.enum) return z.string().pipe(z.enum(field.enum as [string, ...string[]]));
    let s = z.string();
    if (field.minLength !== undefined) s = s.min(field.minLength);
    if (field.maxLength !== undefined) s = s.max(field.maxLength);
    return s;
  },
  integer: (field) => {
    if (field.kind !== 'integer') throw new Error('unreachable');
    let n = z.number();
    if (field.min !== undefined) n = n.min(field.min);
    if (field.max !== undefined) n = n.max(field.max);
    const checked = typed('int', Number.isSafeInteger).pipe(n);
    return field.enum ? checked.pipe(z.literal(field.enum as [number, ...number[]])) : checked;
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
  ref: () => z.string().min(1),
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

/** Issues by dotted path (`info.regex`, `tgt.0`); the error's constructor nests them like the document. */
export type FlatIssues = Record<string, string>;

/** Our `_issues` of a Zod error: one message per path (the first), unknown keys named one by one. */
export function issuesOf(error: z.ZodError): FlatIssues {
  // No prototype: an unknown key named `__proto__` is reported like any other.
  const issues = Object.create(null) as FlatIssues;
  for (const issue of error.issues) {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues[[...at, key].join('.')] ??= issueMessage('unknown');
      continue;
    }
    const [kind, params] = describe(issue);
    issues[at.length > 0 ? at.join('.') : '_body'] ??= issueMessage(kind, params);
  }
  return issues;
}

/** Parses with `schema`; the failure is our `_issues`. Inputs are reported so a missing field is told from a wrong one. */
export function parseWith(
  schema: z.ZodType,
  value: unknown,
): { ok: true; data: unknown } | { ok: false; issues: FlatIssues } {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, issues: issuesOf(parsed.error) };
}
