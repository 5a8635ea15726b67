/**
 * What every part of the OpenAPI document is made of: plain JSON objects, `$ref`s into
 * `components`, and the names each resource's schemas go by (stable: generated clients and the
 * typed client import them by name).
 */
import type { CompiledResource } from '../compile/compile';

/** A JSON Schema or an OpenAPI object, as plain JSON. */
export type Schema = Record<string, unknown>;

/** `$ref` to a schema of `components.schemas`. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** `$ref` to another kind of component (`parameters`, `responses`, `headers`). */
export const componentRef = (kind: 'parameters' | 'responses' | 'headers', name: string): Schema => ({
  $ref: `#/components/${kind}/${name}`,
});

/** A JSON body of `schema`. */
export const json = (schema: Schema): Schema => ({ 'application/json': { schema } });

/** `schema` or JSON `null`. */
export const orNull = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** `hosts_statistic` -> `HostsStatistic`, `vpn-managers` -> `VpnManagers`. */
export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** `get` + `/hosts/statistics/:kind` -> `getHostsStatisticsByKind`. */
export function camelOperation(method: string, segments: readonly string[]): string {
  return method + segments.map((s) => (s.startsWith(':') ? `By${pascal(s.slice(1))}` : pascal(s))).join('');
}

/** The component names of one resource's schemas: `Host`, `HostPatch`, `HostsPage`, ... */
export interface SchemaNames {
  /** The item as GETs render it. */
  readonly item: string;
  /** The item embedded in another (`embedded`): no `_links`, no list-hidden fields. */
  readonly embedded: string;
  readonly links: string;
  readonly related: string;
  /** A successful write's answer. */
  readonly written: string;
  readonly create: string;
  /** A create as multipart/form-data, with the files of the media fields. */
  readonly upload: string;
  readonly patch: string;
  readonly replace: string;
  /** `PUT /<name>` naming the item by `_id`. */
  readonly update: string;
  readonly page: string;
}

/** The names of `res`'s schemas, from its item title (`Failed_patch` -> `FailedPatch`). */
export function schemaNames(res: CompiledResource): SchemaNames {
  const item = pascal(res.itemTitle);
  return {
    item,
    embedded: `${item}Embedded`,
    links: `${item}Links`,
    related: `${item}Related`,
    written: `${item}Written`,
    create: `${item}Create`,
    upload: `${item}Upload`,
    patch: `${item}Patch`,
    replace: `${item}Replace`,
    update: `${item}Update`,
    page: `${pascal(res.name)}Page`,
  };
}
