/**
 * Types inferred from a definition, never written twice: `ItemOf<typeof hosts>` is what a host
 * document holds, `CreateInputOf` what a POST accepts, `PatchInputOf` what a PATCH accepts.
 */
import type { Field, Fields } from './fields';

/** The part of a definition the types are inferred from. */
interface Declared {
  readonly fields: Fields;
  readonly patchable?: readonly string[];
}

type Nullable<F, T> = F extends { nullable: true } ? T | null : T;

/** The value type of one field. */
export type ValueOf<F extends Field> = Nullable<
  F,
  F extends { kind: 'string'; enum: readonly (infer E)[] }
    ? E
    : F extends { kind: 'string' | 'ref' | 'media' }
      ? string
      : F extends { kind: 'integer'; enum: readonly (infer N)[] }
        ? N
        : F extends { kind: 'integer' | 'number' }
          ? number
          : F extends { kind: 'boolean' }
            ? boolean
            : F extends { kind: 'datetime' }
              ? Date
              : F extends { kind: 'array'; of: infer E extends Field }
                ? ValueOf<E>[]
                : F extends { kind: 'object'; fields: infer S extends Fields }
                  ? ObjectOf<S> & (F extends { open: true } ? Record<string, unknown> : unknown)
                  : never
>;

type RequiredKeys<S extends Fields> = {
  [K in keyof S]: S[K] extends { required: true } ? K : S[K] extends { default: unknown } ? K : never;
}[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A stored sub-document: required and defaulted keys present, the rest optional. */
export type ObjectOf<S extends Fields> = Simplify<
  { [K in RequiredKeys<S>]: ValueOf<S[K]> } & { [K in Exclude<keyof S, RequiredKeys<S>>]?: ValueOf<S[K]> }
>;

type Stored<S extends Fields> = { [K in keyof S as S[K] extends { writeOnly: true } ? never : K]: S[K] };
type WriteOnly<S extends Fields> = { [K in keyof S as S[K] extends { writeOnly: true } ? K : never]: S[K] };
type Writable<S extends Fields> = { [K in keyof S as S[K] extends { readonly: true } ? never : K]: S[K] };
type Mandatory<S extends Fields> = { [K in keyof S]: S[K] extends { required: true } ? K : never }[keyof S];

/** Meta fields every item carries. */
export interface ItemMeta {
  _id: string;
  _created: Date;
  _updated: Date;
  _etag: string;
}

/** Any item, when the fields are not known statically (`Collection` of a resource looked up by name). */
export type AnyItem = ItemMeta & Record<string, unknown>;

/** The stored item of a resource, from its fields. */
export type ItemOfFields<F extends Fields> = string extends keyof F
  ? AnyItem
  : Simplify<ItemMeta & ObjectOf<Stored<F>>>;

/** The stored item of a resource. */
export type ItemOf<D extends Declared> = ItemOfFields<D['fields']>;

/** Stored field values as a write hands them to hooks: any of them, each optional. */
export type FieldValuesOf<F extends Fields> = string extends keyof F
  ? Record<string, unknown>
  : Simplify<{ [K in keyof Stored<F>]?: ValueOf<F[K]> }>;

/** The write-only inputs of a write (a group's `hosts`), handed to hooks, never stored. */
export type ExtrasOf<F extends Fields> = string extends keyof F
  ? Record<string, unknown>
  : Simplify<{ [K in keyof WriteOnly<F>]?: ValueOf<F[K]> }>;

/**
 * What a write of the local API accepts: any declared field (validation decides which the caller
 * may set: server-set ones only with the system principal), and `_id` for natural ids.
 */
export type WriteDataOf<F extends Fields> = string extends keyof F
  ? { _id?: string } & Record<string, unknown>
  : Simplify<{ _id?: string } & { [K in keyof F]?: ValueOf<F[K]> }>;

/** What a create (POST) accepts: writable fields, the `required` ones mandatory. */
export type CreateInputOf<D extends Declared> = Simplify<
  { [K in Mandatory<Writable<D['fields']>>]: ValueOf<D['fields'][K]> } & {
    [K in Exclude<keyof Writable<D['fields']>, Mandatory<Writable<D['fields']>>>]?: ValueOf<D['fields'][K]>;
  }
>;

/** What a PATCH accepts: the patchable fields (default: the writable ones), all optional. */
export type PatchInputOf<D extends Declared> = Simplify<{
  [
    K in D['patchable'] extends readonly (infer P)[] ? P & keyof D['fields'] : keyof Writable<D['fields']>
  ]?: ValueOf<D['fields'][K]>;
}>;
