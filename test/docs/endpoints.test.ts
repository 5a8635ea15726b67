/**
 * docs/endpoints.md against the OpenAPI document the server serves: the page lists every
 * operation of the document, once, with the least role the operation declares
 * (`x-required-role`; `none` where no token is needed), and nothing the document does not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiDocument, createRegistry } from '../../engine/src';
import { allResources, allRouteGroups } from '../../resources';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** `METHOD path role` of every operation of the document. */
function documented(): string[] {
  const doc = apiDocument(createRegistry(allResources, allRouteGroups)) as {
    paths: Record<string, Record<string, { 'x-required-role'?: string | null }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => `${method.toUpperCase()} ${path} ${op['x-required-role'] ?? 'none'}`),
  );
}

/** `METHOD path role` of every row of the page's tables. */
function listed(): string[] {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'endpoints.md'), 'utf8');
  return page
    .split('\n')
    .map((line) => /^\| (GET|PUT|POST|PATCH|DELETE) \| `([^`]+)` \| (\w+) \|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1] ?? ''} ${m[2] ?? ''} ${m[3] ?? ''}`);
}

it('lists every operation of the OpenAPI document once, with its role', () => {
  const rows = listed();
  expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([]);
  expect([...rows].sort()).toEqual(documented().sort());
});
