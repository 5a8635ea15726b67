/**
 * Field -> JSON Schema, one table entry per field kind (as compile/zod.ts does for validation),
 * in the four ways a field appears on the wire:
 *
 * - `read`: as the renderer writes it (http/render): RFC 1123 dates, secrets masked,
 *   media as links, server-set fields `readOnly`, a top-level reference either its id or, with
 *   `embedded`, the target item (a dangling single reference embeds as `null`, ops/read.ts).
 * - `embedded`: inside an embedded item: references stay ids.
 * - `create`: what POST / PUT bodies accept (compile/zod.ts `create`): bounds, `required`,
 *   defaults; media fields as files (multipart only).
 * - `patch`: what PATCH accepts: nothing required, sub-documents merged (so their sub-fields
 *   are optional too), lists replaced whole.
 */
import type { Field, FieldKind, Fields } from '../definition/fields';
import { MASK } from '../secrets';
import { orNull, type Schema } from './schema';

export type FieldMode = 'read' | 'embedded' | 'create' | 'patch';

/** How a field is being described. */
export interface FieldContext {
  readonly mode: FieldMode;
  /** The component name of the embedded items of a resource (`Host` -> `HostEmbedded`). */
  readonly embeddedName: (resource: string) => string;
  /** A top-level field of the item: only those are relations that `embedded` may expand. */
  readonly topLevel: boolean;
  /** Media fields are files (multipart) rather than absent (JSON bodies cannot carry them). */
  readonly files?: boolean;
}

/** An RFC 1123 date as `Date.prototype.toUTCString` writes it (http/dates.ts). */
export const RFC1123_PATTERN =
  '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$';
export const DATE_EXAMPLE = 'Wed, 25 Nov 2026 21:08:02 GMT';

const isWrite = (ctx: FieldContext): boolean => ctx.mode === 'create' || ctx.mode === 'patch';

/** `minLength`-style bounds, on write schemas only: stored data is described by type, not re-validated. */
function bounds(ctx: FieldContext, entries: Readonly<Record<string, number | undefined>>): Schema {
  if (!isWrite(ctx)) return {};
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

function refSchema(field: Field, ctx: FieldContext, inList: boolean): Schema {
  const to = field.kind === 'ref' ? field.to : '';
  const id: Schema = {
    type: 'string',
    description: `Id of a ${to} item`,
    ...(isWrite(ctx) ? { minLength: 1 } : {}),
  };
  if (ctx.mode !== 'read' || !ctx.topLevel) return id;
  const expanded: Schema[] = [id, { $ref: `#/components/schemas/${ctx.embeddedName(to)}` }];
  // ops/read.ts: a dangling single reference embeds as null; a dangling list entry is dropped.
  return { anyOf: inList ? expanded : [...expanded, { type: 'null' }] };
}

const kindSchema = {
  string: (f, ctx) =>
    f.kind === 'string'
      ? {
          type: 'string',
          ...(f.enum ? { enum: [...f.enum] } : {}),
          ...bounds(ctx, { minLength: f.minLength, maxLength: f.maxLength }),
        }
      : {},
  integer: (f, ctx) =>
    f.kind === 'integer'
      ? {
          type: 'integer',
          ...(f.enum ? { enum: [...f.enum] } : {}),
          ...bounds(ctx, { minimum: f.min, maximum: f.max }),
        }
      : {},
  number: (f, ctx) =>
    f.kind === 'number' ? { type: 'number', ...bounds(ctx, { minimum: f.min, maximum: f.max }) } : {},
  boolean: () => ({ type: 'boolean' }),
  datetime: (_f, ctx) =>
    isWrite(ctx)
      ? {
          type: 'string',
          description: 'RFC 1123, ISO 8601, or "YYYY-MM-DD HH:MM" (UTC)',
          examples: [DATE_EXAMPLE, '2026-11-25 21:08'],
        }
      : { type: 'string', pattern: RFC1123_PATTERN, description: 'RFC 1123 date', examples: [DATE_EXAMPLE] },
  ref: (f, ctx) => refSchema(f, ctx, false),
  // A file part of multipart/form-data: raw bytes, so no JSON `type` (OpenAPI 3.1 "Considerations
  // for File Uploads"); `contentMediaType` marks it a file (Swagger UI's file picker), and a
  // generated client types it as any value (a Blob, a File).
  media: (_f, ctx) =>
    isWrite(ctx)
      ? {
          contentMediaType: 'application/octet-stream',
          description: 'The file (a part of multipart/form-data)',
        }
      : {
          type: 'string',
          description:
            "Link to the bytes: /api/media/<id>, signed (?expires=...&signature=...) so a browser opens it without a token; absolute (https://...) when the server knows its public URL (PUBLIC_URL). Resolve a path against the server's origin, not against /api",
          examples: [
            '/api/media/6566d7e2a1b2c3d4e5f60718?expires=1795000000&signature=…',
            'https://fleet.example.com/api/media/6566d7e2a1b2c3d4e5f60718?expires=1795000000&signature=…',
          ],
        },
  array: (f, ctx) => {
    if (f.kind !== 'array') return {};
    // Array elements are whole values even in a PATCH (compile/zod.ts): a list is replaced, never merged.
    const inner: FieldContext = { ...ctx, mode: ctx.mode === 'patch' ? 'create' : ctx.mode };
    const items =
      f.of.kind === 'ref' ? refSchema(f.of, ctx, true) : fieldSchema(f.of, { ...inner, topLevel: false });
    return { type: 'array', items };
  },
  object: (f, ctx) =>
    f.kind === 'object' ? objectSchema(f.fields, { ...ctx, topLevel: false }, f.open === true) : {},
} satisfies Record<FieldKind, (f: Field, ctx: FieldContext) => Schema>;

/** A field's default as a value (defaults of objects and lists are functions returning fresh values). */
function defaultOf(field: Field): { value: unknown } | undefined {
  if (!('default' in field) || field.default === undefined) return undefined;
  const d: unknown = field.default;
  return { value: typeof d === 'function' ? (d as () => unknown)() : d };
}

/**
 * A body field's default, in words and as the example, not as the `default` keyword: generators
 * read `default` as "always present" and make the field required in the body type
 * (openapi-typescript's defaultNonNullable, on by default), where the server fills it in.
 */
function noteDefault(schema: Schema, value: unknown): void {
  const said = `Default: ${JSON.stringify(value)}`;
  schema.description = typeof schema.description === 'string' ? `${schema.description}. ${said}` : said;
  if (schema.examples === undefined) schema.examples = [value];
}

/** The schema of one field in `ctx.mode`. */
export function fieldSchema(field: Field, ctx: FieldContext): Schema {
  const read = !isWrite(ctx);
  if (read && field.secret) {
    // The local API masks every secret that has a value (secrets/view.ts).
    const masked: Schema = {
      const: MASK,
      description: `${field.description ? `${field.description}. ` : ''}Secret: accepted on write, always read back as "${MASK}".`,
    };
    return field.nullable ? orNull(masked) : masked;
  }
  const { description: kindNote, ...core }: Schema = kindSchema[field.kind](field, ctx);
  // A top-level reference read back may already be null (a dangling embed): refSchema says so.
  const nullable = field.nullable === true && !(field.kind === 'ref' && ctx.mode === 'read' && ctx.topLevel);
  const schema: Schema = nullable ? orNull(core) : core;
  const notes = [
    field.description,
    typeof kindNote === 'string' ? kindNote : undefined,
    !read && field.secret ? 'Secret: stored encrypted, read back masked' : undefined,
  ];
  const description = notes.filter((n) => n !== undefined && n !== '').join('. ');
  if (description !== '') schema.description = description;
  if (read && field.readonly) schema.readOnly = true;
  // Accepted on write and handed to hooks, never stored nor read back (a group's `hosts`).
  if (!read && field.writeOnly && ctx.topLevel) schema.writeOnly = true;
  const dflt = ctx.mode === 'create' ? defaultOf(field) : undefined;
  if (dflt !== undefined) noteDefault(schema, dflt.value);
  return schema;
}

/** Whether a field appears in this mode at all. */
function present(field: Field, ctx: FieldContext): boolean {
  if (!isWrite(ctx)) return field.writeOnly !== true;
  if (field.kind === 'media') return ctx.files === true;
  return true;
}

/** The schema of a sub-document (or of a whole body's fields): `open` objects keep undeclared keys. */
export function objectSchema(fields: Fields, ctx: FieldContext, open: boolean): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (!present(field, ctx)) continue;
    properties[name] = fieldSchema(field, ctx);
    if (ctx.mode === 'create' && field.required) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: open,
  };
}
