/**
 * The OpenAPI 3.1 document of a registry: every exposed resource's schemas and generic
 * operations, the custom routes and route groups, the system paths, the shared components, the
 * bearer scheme (and signed media links), one tag per resource and group.
 */
import type { Registry } from '../compile/registry';
import { errorResponseComponents, SHARED_HEADERS, SHARED_PARAMETERS, SHARED_SCHEMAS } from './components';
import { addRoute } from './declared-routes';
import { resourcePaths } from './resource-paths';
import { resourceSchemas } from './resource-schemas';
import type { Schema } from './schema';
import { systemPaths } from './system';

export interface DocumentInfo {
  readonly title: string;
  readonly version: string;
}

const DESCRIPTION = [
  'Eve-compatible REST API of the fleet: hosts of a Salt master, their groups, actions, alerts, tasks, patches, files and VPN accounts.',
  'Authenticate with `Authorization: Bearer <token>`; each operation names the least role it needs in `x-required-role` (viewer < operator < admin).',
  'Collections answer `{_items, _links, _meta}` pages; items carry `_id`, `_created`, `_updated`, `_etag` and `_links`; writes answer those with `_status: "OK"`; errors are `{_status: "ERR", _error: {code, message}, _issues?}`.',
  'Writes accept JSON, `application/x-www-form-urlencoded`, and `multipart/form-data` where a resource has files.',
].join('\n\n');

/** Resources with an HTTP method, and those their items may embed. */
function exposedResources(registry: Registry): Set<string> {
  const exposed = new Set(
    [...registry.resources.values()].filter((r) => Object.keys(r.def.methods).length > 0).map((r) => r.name),
  );
  for (const name of [...exposed]) for (const rel of registry.get(name).relations) exposed.add(rel.to);
  return exposed;
}

/** Every operationId once: generated clients name their functions after them. */
function checkOperationIds(paths: Record<string, Schema>): void {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const id = (op as Schema).operationId;
      if (typeof id !== 'string') continue;
      const other = seen.get(id);
      if (other !== undefined)
        throw new Error(`OpenAPI: operationId "${id}" of ${method.toUpperCase()} ${path} is also ${other}'s`);
      seen.set(id, `${method.toUpperCase()} ${path}`);
    }
  }
}

/** Every `$ref` target below `node`. */
function refsIn(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const v of node) refsIn(v, out);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
}

/** The components the paths use, directly or through other components (a resource's embedded form only where a reference needs it). */
function usedComponents(
  paths: Record<string, Schema>,
  components: Record<string, Record<string, Schema>>,
): Record<string, Record<string, Schema>> {
  const used = refsIn(paths, new Set());
  const seen = new Set<string>();
  for (let todo = [...used]; todo.length > 0;) {
    const next: string[] = [];
    for (const target of todo) {
      if (seen.has(target)) continue;
      seen.add(target);
      const [, , kind = '', name = ''] = target.split('/');
      next.push(...refsIn(components[kind]?.[name], new Set()));
    }
    todo = next;
  }
  return Object.fromEntries(
    Object.entries(components).map(([kind, all]) => [
      kind,
      Object.fromEntries(Object.entries(all).filter(([name]) => seen.has(`#/components/${kind}/${name}`))),
    ]),
  );
}

/** The OpenAPI document of every registered resource and route group. */
export function openApiDocument(registry: Registry, info: DocumentInfo): Schema {
  const system = systemPaths();
  const schemas: Record<string, Schema> = { ...SHARED_SCHEMAS, ...system.schemas };
  const paths: Record<string, Schema> = { ...system.paths };
  const tags: Schema[] = [
    { name: 'api', description: "The home document, files' bytes, health and this document" },
  ];
  const exposed = exposedResources(registry);
  for (const res of registry.resources.values()) {
    if (!exposed.has(res.name)) continue;
    Object.assign(schemas, resourceSchemas(res, registry));
    const own = resourcePaths(res, registry);
    for (const route of res.def.routes ?? [])
      addRoute(own, registry, { base: res.name, tag: res.name, own: res.name }, route);
    if (Object.keys(own).length === 0) continue;
    Object.assign(paths, own);
    tags.push({ name: res.name, description: res.def.description });
  }
  for (const group of registry.groups.values()) {
    for (const route of group.routes) addRoute(paths, registry, { base: group.base, tag: group.base }, route);
    tags.push({ name: group.base, description: group.description });
  }
  checkOperationIds(paths);
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      { url: '/', description: 'The server that serves this document (every path starts with /api)' },
    ],
    tags,
    paths,
    components: {
      ...usedComponents(paths, {
        schemas,
        parameters: SHARED_PARAMETERS,
        headers: SHARED_HEADERS,
        responses: errorResponseComponents(),
      }),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A token of API_TOKENS or made with `fleet token create`; its role is viewer, operator or admin',
        },
        mediaLink: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description: 'A signed media link: the expires and signature a media field reads back with',
        },
      },
    },
  };
}
