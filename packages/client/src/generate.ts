/**
 * The client's types, generated from the API's OpenAPI document (the one GET /api/openapi.json
 * serves, built from the same definitions) by openapi-typescript, formatted as the repository
 * formats TypeScript. `pnpm gen:client` writes them to src/schema.ts; the tests generate them
 * again and compare (test/client/generate.test.ts), so the committed types never drift.
 */
import { join } from 'node:path';
import { apiDocument, createRegistry } from '@fleet/engine';
import { allResources, allRouteGroups } from '@fleet/resources';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

/** Where the generated types live. */
export const SCHEMA_FILE = join(__dirname, 'schema.ts');

const HEADER = `/**
 * Types of the Fleet API, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run \`pnpm gen:client\` (packages/client/src/generate.ts).
 */
`;

/** The document the server serves, from the registered definitions and route groups. */
export function fleetDocument(): Record<string, unknown> {
  return apiDocument(createRegistry(allResources, allRouteGroups));
}

/** The text of src/schema.ts for the current definitions. */
export async function generateSchema(): Promise<string> {
  // A field with a default is optional in a body: the server fills it in (openapi-typescript would
  // make it required). readOnly / writeOnly fields are marked, so openapi-fetch refuses a body
  // that sets a server-set field and a response type never shows a write-only one.
  // As JSON text, the form GET /api/openapi.json serves: openapi-typescript parses and checks it.
  const ast = await openapiTS(JSON.stringify(fleetDocument()), {
    silent: true,
    defaultNonNullable: false,
    readWriteMarkers: true,
  });
  const options = (await resolveConfig(SCHEMA_FILE)) ?? {};
  // openapi-typescript's read/write markers test against `$Read<any>`: `unknown` says the same
  // (the marker's one property is read-only, so any `$Read<X>` extends `$Read<unknown>`).
  const text = astToString(ast).replace(/\$(Read|Write)<any>/g, '$$$1<unknown>');
  return format(HEADER + text, { ...options, parser: 'typescript' });
}
