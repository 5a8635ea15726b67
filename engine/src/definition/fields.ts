/**
 * Field builders of the definition DSL. Each builder returns a plain, literal-typed descriptor so
 * that a resource's TypeScript types are inferred from its declaration (see infer.ts).
 */

/** The roles of lowest first. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** One of {@link ROLES}. */
export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

/** Options every field kind shares. */
export interface FieldOptions {
  /** Must be present on create/replace. */
  readonly required?: boolean;
  /** Server-set: a client that sends it gets 422. */
  readonly readonly?: boolean;
  /** Accepted on write, encrypted at rest, always read back masked, refused in where/sort. */
  readonly secret?: boolean;
  /** Left out of collection GETs unless a projection asks for it (a host's `grain`). */
  readonly hiddenInList?: boolean;
  /** Accepted on write and handed to hooks, never stored (a group's `hosts`). */
  readonly writeOnly?: boolean;
  /** `null` is an accepted value. */
  readonly nullable?: boolean;
  /** A unique index; duplicates are 409 naming the field. */
  readonly unique?: boolean;
  readonly description?: string;
}

export interface StringField extends FieldOptions {
  readonly kind: 'string';
  readonly enum?: readonly string[];
  /** `null` only with `nullable`. */
  readonly default?: string | null;
  readonly minLength?: number;
  readonly maxLength?: number;
}
export interface IntegerField extends FieldOptions {
  readonly kind: 'integer';
  readonly enum?: readonly number[];
  readonly default?: number | null;
  readonly min?: number;
  readonly max?: number;
}
export interface NumberField extends FieldOptions {
  readonly kind: 'number';
  readonly default?: number | null;
  readonly min?: number;
  readonly max?: number;
}
export interface BooleanField extends FieldOptions {
  readonly kind: 'boolean';
  readonly default?: boolean | null;
}
/** A point in time: stored as a Date, rendered RFC 1123, accepted as RFC 1123 or ISO 8601. */
export interface DatetimeField extends FieldOptions {
  readonly kind: 'datetime';
  readonly default?: null;
}
/** A sub-document with declared sub-fields; `open` also accepts (and keeps) undeclared keys. */
export interface ObjectField extends FieldOptions {
  readonly kind: 'object';
  readonly fields: Readonly<Record<string, Field>>;
  readonly open?: boolean;
  readonly default?: (() => Record<string, unknown>) | null;
}
export interface ArrayField extends FieldOptions {
  readonly kind: 'array';
  readonly of: Field;
  readonly default?: () => unknown[];
}
/**
 * What deleting a referenced item does to the items referring to it (Prisma's `onDelete`):
 * `restrict` refuses the delete with 409 while a visible item refers to it; `pull` removes the id
 * from a list of references; `nullify` sets a single reference to null. Items hidden by soft delete
 * never block a delete: their reference is pulled or nulled.
 */
export type DeleteRule = 'restrict' | 'pull' | 'nullify';

/** The `_id` of an item of another resource: `_links.related` and `embedded` come from these. */
export interface RefField extends FieldOptions {
  readonly kind: 'ref';
  readonly to: string;
  /** Default `restrict`. `pull` needs the reference to be an array element, `nullify` a nullable field. */
  readonly onDelete?: DeleteRule;
  /**
   * Default true: a write naming an id that does not exist (or is hidden by soft delete) is 422.
   * `false` for records that may arrive before their target (an action of a minion the sync has
   * not stored yet).
   */
  readonly exists?: boolean;
  readonly default?: string | null;
}
/** Uploaded bytes (multipart); stored in the media store and read back as `/api/media/<id>`. */
export interface MediaField extends FieldOptions {
  readonly kind: 'media';
}

export type Field =
  | StringField
  | IntegerField
  | NumberField
  | BooleanField
  | DatetimeField
  | ObjectField
  | ArrayField
  | RefField
  | MediaField;
export type FieldKind = Field['kind'];
export type Fields = Readonly<Record<string, Field>>;

type Opts<F extends Field> = Omit<F, 'kind'>;

/** The field builders: `f.string({ required: true })`, `f.array(f.ref('groups'))`, ... */
export const f = {
  string: <const O extends Opts<StringField>>(o?: O) => ({ kind: 'string', ...o }) as { kind: 'string' } & O,
  integer: <const O extends Opts<IntegerField>>(o?: O) =>
    ({ kind: 'integer', ...o }) as { kind: 'integer' } & O,
  number: <const O extends Opts<NumberField>>(o?: O) => ({ kind: 'number', ...o }) as { kind: 'number' } & O,
  boolean: <const O extends Opts<BooleanField>>(o?: O) =>
    ({ kind: 'boolean', ...o }) as { kind: 'boolean' } & O,
  datetime: <const O extends Opts<DatetimeField>>(o?: O) =>
    ({ kind: 'datetime', ...o }) as { kind: 'datetime' } & O,
  object: <const S extends Fields, const O extends Omit<Opts<ObjectField>, 'fields'> = Record<never, never>>(
    fields: S,
    o?: O,
  ) => ({ kind: 'object', fields, ...o }) as { kind: 'object'; fields: S } & O,
  array: <const E extends Field, const O extends Omit<Opts<ArrayField>, 'of'> = Record<never, never>>(
    of: E,
    o?: O,
  ) => ({ kind: 'array', of, ...o }) as { kind: 'array'; of: E } & O,
  ref: <const T extends string, const O extends Omit<Opts<RefField>, 'to'> = Record<never, never>>(
    to: T,
    o?: O,
  ) => ({ kind: 'ref', to, ...o }) as { kind: 'ref'; to: T } & O,
  media: <const O extends Opts<MediaField>>(o?: O) => ({ kind: 'media', ...o }) as { kind: 'media' } & O,
};
