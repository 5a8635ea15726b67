/**
 * Types inferred from a definition, never written twice: `ItemOf<typeof hosts>` is what a host
 * document holds, `CreateInputOf` what a POST accepts, `PatchInputOf` what a PATCH accepts.
 */
import type { Field, Fields } from './fields';
import type { ResourceDefinition } from './define';

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
type Writable<S extends Fields> = { [K in keyof S as S[K] extends { readonly: true } ? never : K]: S[K] };
type Mandatory<S extends Fields> = { [K in keyof S]: S[K] extends { required: true } ? K : never }[keyof S];

/** Meta fields every item carries. */
export interface ItemMeta {
  _id: string;
  _created: Date;
  _updated: Date;
  _etag: string;
}

/** The stored item of a resource. */
export type ItemOf<D extends ResourceDefinition> = Simplify<ItemMeta & ObjectOf<Stored<D['fields']>>>;

/** What a create (POST) accepts: writable fields, the `required` ones mandatory. */
export type CreateInputOf<D extends ResourceDefinition> = Simplify<
  { [K in Mandatory<Writable<D['fields']>>]: ValueOf<D['fields'][K]> } & {
    [K in Exclude<keyof Writable<D['fields']>, Mandatory<Writable<D['fields']>>>]?: ValueOf<D['fields'][K]>;
  }
>;

/** What a PATCH accepts: the patchable fields (default: the writable ones), all optional. */
export type PatchInputOf<D extends ResourceDefinition> = Simplify<{
  [K in D['patchable'] extends readonly (infer P)[] ? P & keyof D['fields'] : keyof Writable<D['fields']>]?: ValueOf<D['fields'][K]>;
}>;
