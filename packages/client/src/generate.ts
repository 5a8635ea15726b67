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
import ts from 'typescript';

/** Where the generated types live. */
export const SCHEMA_FILE = join(__dirname, 'schema.ts');

const HEADER = `/**
 * Types of the Fleet API, generated from its OpenAPI document by openapi-typescript.
 * Do not edit: run \`pnpm gen:client\` (packages/client/src/generate.ts).
 */
`;

const BLOB = ts.factory.createTypeReferenceNode('Blob');

/** A file part of a multipart body: bytes of a media type, not a JSON value. */
function isFilePart(schema: unknown): boolean {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    'contentMediaType' in schema &&
    typeof schema.contentMediaType === 'string' &&
    !('type' in schema)
  );
}

/** The document the server serves, from the registered definitions and route groups. */
export function fleetDocument(): Record<string, unknown> {
  return apiDocument(createRegistry(allResources, allRouteGroups));
}

/** The text of src/schema.ts for the current definitions. */
export async function generateSchema(): Promise<string> {
  // openapi-typescript's defaults, as an integrator runs it (the document needs no option for its
  // bodies), plus two things a stock run leaves loose: readOnly / writeOnly fields are marked, so
  // openapi-fetch refuses a body that sets a server-set field and a response type never shows a
  // write-only one; and a file part (contentMediaType, no JSON type) is a Blob, not `unknown`.
  // As JSON text, the form GET /api/openapi.json serves: openapi-typescript parses and checks it.
  const ast = await openapiTS(JSON.stringify(fleetDocument()), {
    silent: true,
    readWriteMarkers: true,
    transform: (schema) => (isFilePart(schema) ? BLOB : undefined),
  });
  const options = (await resolveConfig(SCHEMA_FILE)) ?? {};
  // openapi-typescript's read/write markers test against `$Read<any>`: `unknown` says the same
  // (the marker's one property is read-only, so any `$Read<X>` extends `$Read<unknown>`).
  const text = astToString(ast).replace(/\$(Read|Write)<any>/g, '$$$1<unknown>');
  return format(HEADER + text, { ...options, parser: 'typescript' });
}
