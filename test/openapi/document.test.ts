/**
 * What the OpenAPI document promises generators and readers: every endpoint of the spec, one
 * stable operationId each, the role each needs, every query parameter, bodies per method (PATCH
 * with nothing required, server-set fields refused, files as multipart), responses whose
 * required fields are exactly those every answer carries, and the error shape on every error.
 */
import { apiDocument, createRegistry } from '../../engine/src';
import { allResources, allRouteGroups } from '../../resources';

/** The parts of the document the tests read (the expectations check them; types only guide the reading). */
interface SchemaNode {
  readonly $ref?: string;
  readonly required?: string[];
  readonly properties: Readonly<Record<string, SchemaNode>>;
  readonly anyOf: readonly SchemaNode[];
  readonly items: SchemaNode;
  readonly [key: string]: unknown;
}
interface Param {
  readonly name?: string;
  readonly $ref?: string;
  readonly [key: string]: unknown;
}
interface Media {
  readonly schema: SchemaNode;
  readonly encoding: Readonly<Record<string, unknown>>;
}
interface Answer {
  readonly $ref?: string;
  readonly content: Readonly<Record<string, Media>>;
}
interface Operation {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly security: readonly unknown[];
  readonly 'x-required-role'?: string;
  readonly parameters?: readonly Param[];
  readonly requestBody: { readonly content: Readonly<Record<string, Media>> };
  readonly responses: Readonly<Record<string, Answer>>;
}
interface Document {
  readonly servers: readonly unknown[];
  readonly tags: readonly { readonly name: string }[];
  readonly paths: Readonly<
    Record<string, Readonly<Record<string, unknown>> & { readonly parameters?: readonly Param[] }>
  >;
  readonly components: {
    readonly schemas: Readonly<Record<string, SchemaNode>>;
    readonly responses: Readonly<Record<string, Answer>>;
  };
}

const doc = apiDocument(createRegistry(allResources, allRouteGroups)) as unknown as Document;
const paths = doc.paths;
const schemas = doc.components.schemas;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] as Operation })),
);
const op = (method: string, path: string): Operation => {
  const found = paths[path]?.[method];
  if (!found) throw new Error(`no ${method.toUpperCase()} ${path}`);
  return found as Operation;
};
const paramNames = (method: string, path: string): string[] =>
  [...(paths[path]?.parameters ?? []), ...(op(method, path).parameters ?? [])].map(
    (p) => p.name ?? p.$ref?.split('/').pop() ?? '',
  );
const refName = (node: { readonly $ref?: string } | undefined): string => node?.$ref?.split('/').pop() ?? '';

/** Every endpoint of the spec's endpoint tables (docs/endpoints.md). */
const SPEC_ENDPOINTS = `
GET /api/actions, GET /api/actions/{id}, GET /api/hosts/statistics/online, GET /api/hosts/statistics/unique_online,
GET /api/hosts/statistics/unique_updated, GET /api/hosts/statistics/unique_dist_upgraded, GET /api/hosts/statistics/new_hosts, GET /api/alerts, GET /api/alerts/{id},
GET /api/failed_patches, GET /api/failed_patches/{id}, GET /api/files, GET /api/files/{id}, POST /api/files,
GET /api/graph/{id}, GET /api/graph/{id}/nodes, GET /api/graph/{id}/edges, GET /api/graph/not-linked, POST /api/graph,
GET /api/groups, GET /api/groups/{id}, GET /api/groups/{id}/subgroups, GET /api/groups/{id}/hostnames, POST /api/groups,
POST /api/groups/{id}, PATCH /api/groups/{id}, DELETE /api/groups, DELETE /api/groups/{id}, GET /api/hosts,
GET /api/hosts/{id}, POST /api/hosts/{id}, POST /api/hosts/{id}/all_status, PATCH /api/hosts/{id}, DELETE /api/hosts/{id},
GET /api/hosts_statistic, GET /api/hosts_statistic/{id}, GET /api/nodegroups, GET /api/nodegroups/{id}, GET /api/settings,
GET /api/settings/{id}, PATCH /api/settings/{id}, GET /api/tasks, GET /api/tasks/{id}, POST /api/tasks,
PATCH /api/tasks/{id}/{status}, PUT /api/tasks, DELETE /api/tasks/{id}, GET /api/updates, GET /api/updates/{id},
POST /api/updates, PATCH /api/updates/{id}, GET /api/vpn_managers, GET /api/vpn_managers/{id}, POST /api/vpn_managers,
DELETE /api/vpn_managers/{id}, GET /api/vpn_organizations, GET /api/vpn_organizations/{id}, POST /api/vpn_organizations,
DELETE /api/vpn_organizations/{id}`
  .split(',')
  .map((s) => s.trim());

describe('the operations', () => {
  it('cover every endpoint of the spec, the health check, the media files and the document itself', () => {
    for (const endpoint of [
      ...SPEC_ENDPOINTS,
      'GET /api/health',
      'GET /api/media/{id}',
      'GET /api/openapi.json',
      'GET /api/docs/openapi.json',
    ]) {
      const [method = '', path = ''] = endpoint.split(' ');
      expect(() => op(method.toLowerCase(), path)).not.toThrow();
    }
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('each answer a 2xx, but the root, which sends a client to the home document', () => {
    for (const [path, item] of Object.entries(paths))
      for (const [method, o] of Object.entries(item)) {
        if (method === 'parameters') continue;
        const statuses = Object.keys((o as Operation).responses);
        if (path === '/') expect(statuses).toEqual(['302']);
        else
          expect(`${method} ${path}: ${statuses.filter((st) => st.startsWith('2')).length > 0}`).toMatch(
            /true$/,
          );
      }
  });

  it('each have a unique readable operationId, a declared tag and a summary', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+[A-Za-z]*$/);
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const { op: o } of operations) {
      expect(tags.has(o.tags[0] ?? '')).toBe(true);
      expect(o.summary).toEqual(expect.any(String));
    }
    expect(op('get', '/api/hosts').operationId).toBe('listHosts');
    expect(op('patch', '/api/tasks/{id}').operationId).toBe('patchTask');
    expect(op('post', '/api/hosts/{id}').operationId).toBe('postHostsById');
  });

  it("name the role each needs: the definition's, with the bearer scheme, and 401 when a token is needed", () => {
    for (const res of allResources) {
      for (const [method, path, role] of [
        ['get', `/api/${res.name}`, res.methods.list],
        ['get', `/api/${res.name}/{id}`, res.methods.get],
        ['patch', `/api/${res.name}/{id}`, res.methods.patch],
        ['delete', `/api/${res.name}/{id}`, res.methods.delete],
      ] as const) {
        if (role !== undefined) expect(op(method, path)['x-required-role']).toBe(role);
      }
    }
    expect(op('post', '/api/hosts/{id}')['x-required-role']).toBe('operator');
    expect(op('post', '/api/graph')['x-required-role']).toBe('admin');
    for (const { op: o } of operations) {
      if (o['x-required-role'] === undefined) continue;
      expect(o.security).toContainEqual({ bearer: [] });
      expect(o.responses['401']).toBeDefined();
      expect(o.responses['500']).toBeDefined();
    }
    expect(op('get', '/api/health').security).toEqual([]);
    expect(op('get', '/api/media/{id}').security).toEqual([{ bearer: [] }, { mediaLink: [] }]);
  });
});

describe('parameters', () => {
  it('item GETs take projection and embedded; lists the six common ones', () => {
    for (const res of allResources.filter((r) => r.methods.get))
      expect(paramNames('get', `/api/${res.name}/{id}`)).toEqual(
        expect.arrayContaining(['id', 'projection', 'embedded']),
      );
    for (const res of allResources.filter((r) => r.methods.list)) {
      expect(paramNames('get', `/api/${res.name}`)).toEqual(
        expect.arrayContaining(['where', 'sort', 'projection', 'embedded', 'page', 'max_results']),
      );
    }
  });

  it('and those only some resources read: show_soft_deleted, mark_as_read, range[] / interval / where, If-Match', () => {
    for (const path of ['/api/hosts', '/api/hosts/{id}'])
      expect(paramNames('get', path)).toContain('show_soft_deleted');
    for (const path of ['/api/alerts', '/api/alerts/{id}'])
      expect(paramNames('get', path)).toContain('mark_as_read');
    expect(op('get', '/api/alerts').responses['403']).toBeDefined();
    const period = ['range[]', 'range[0]', 'range[1]', 'range', 'where'];
    expect(paramNames('get', '/api/hosts/statistics/online')).toEqual([...period, 'interval']);
    for (const kind of ['unique_online', 'unique_updated', 'unique_dist_upgraded', 'new_hosts'])
      expect(paramNames('get', `/api/hosts/statistics/${kind}`)).toEqual(period);
    expect(
      op('get', '/api/hosts/statistics/online').parameters?.find((p) => p.name === 'range[]'),
    ).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', minItems: 2, maxItems: 2 },
    });
    expect(
      op('get', '/api/hosts/statistics/online').parameters?.find((p) => p.name === 'interval'),
    ).toMatchObject({ schema: { type: 'integer', minimum: 0 } });
    for (const [path, name] of [
      ['/api/hosts', 'show_soft_deleted'],
      ['/api/alerts', 'mark_as_read'],
    ] as const)
      expect(op('get', path).parameters?.find((p) => p.name === name)).toMatchObject({
        schema: { enum: [true, false, 1, 0] },
      });
    expect(op('delete', '/api/groups').parameters).toContainEqual(
      expect.objectContaining({ name: 'where', required: true }),
    );
    for (const [m, p] of [
      ['patch', '/api/tasks/{id}'],
      ['put', '/api/tasks'],
      ['delete', '/api/tasks/{id}'],
      ['patch', '/api/tasks/{id}/{status}'],
    ]) {
      expect(paramNames(m ?? '', p ?? '')).toContain('IfMatch');
      expect(op(m ?? '', p ?? '').responses['412']).toBeDefined();
    }
  });
});

describe('request bodies', () => {
  it('create requires what the definition requires; PATCH requires nothing; server-set fields are readOnly', () => {
    expect([...(schemas.TaskCreate?.required ?? [])].sort()).toEqual(['fun', 'name', 'start', 'tgt']);
    expect(schemas.TaskPatch?.required).toBeUndefined();
    for (const name of ['next', 'count_of_execution', 'last_run']) {
      expect(schemas.TaskPatch?.properties[name]).toMatchObject({ readOnly: true });
      expect(schemas.Task?.properties[name]).toMatchObject({ readOnly: true });
    }
    expect(schemas.HostPatch?.properties.status).toMatchObject({ readOnly: true });
    expect(schemas.AlertPatch?.properties.type).toMatchObject({
      readOnly: true,
      description: expect.stringContaining('PATCH'),
    });
    expect(schemas.GroupCreate?.properties.hosts).toMatchObject({ writeOnly: true });
    expect(schemas.Group?.properties.hosts).toBeUndefined();
    expect(schemas.TaskUpdate?.required).toEqual(['_id']);
  });

  it('writes take JSON (creates also an array), forms with structured fields as JSON, files only as multipart', () => {
    const create = op('post', '/api/groups').requestBody.content;
    expect(Object.keys(create).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(create['application/json']?.schema.anyOf[1]).toMatchObject({ type: 'array', maxItems: 1000 });
    expect(create['application/x-www-form-urlencoded']?.encoding.subgroups).toEqual({
      contentType: 'application/json',
    });
    expect(Object.keys(op('patch', '/api/tasks/{id}').requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    const files = op('post', '/api/files').requestBody.content;
    expect(Object.keys(files)).toEqual(['multipart/form-data']);
    expect(schemas.FileUpload).toMatchObject({
      required: ['data'],
      properties: { data: { contentMediaType: 'application/octet-stream' } },
    });
    expect(op('post', '/api/hosts/{id}').requestBody.content['application/json']?.schema).toMatchObject({
      required: ['exec_client', 'fun'],
    });
  });
});

describe('responses', () => {
  it('items require the meta fields and _links only (a projection may drop any field); links and pages are typed', () => {
    for (const res of allResources.filter((r) => r.methods.get)) {
      const item =
        schemas[
          refName(op('get', `/api/${res.name}/{id}`).responses['200']?.content['application/json']?.schema)
        ];
      expect([...(item?.required ?? [])].sort()).toEqual(['_created', '_etag', '_id', '_links', '_updated']);
    }
    expect(schemas.HostsPage).toMatchObject({
      required: ['_items', '_links', '_meta'],
      properties: { _links: { $ref: '#/components/schemas/CollectionLinks' } },
    });
    expect(schemas.Meta?.required).toEqual(['page', 'max_results', 'total']);
    expect(schemas.CollectionLinks?.properties.next).toMatchObject({ $ref: '#/components/schemas/Link' });
    expect(schemas.HostRelated?.properties.groups).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Link' },
    });
  });

  it('references are an id, the embedded item, or null when a single one dangles', () => {
    expect(schemas.VpnOrganization?.properties.vpn_manager?.anyOf).toEqual([
      expect.objectContaining({ type: 'string' }),
      { $ref: '#/components/schemas/VpnManagerEmbedded' },
      { type: 'null' },
    ]);
    expect(schemas.Group?.properties.subgroups?.items.anyOf).toEqual([
      expect.objectContaining({ type: 'string' }),
      { $ref: '#/components/schemas/GroupEmbedded' },
    ]);
    expect(schemas.VpnManagerEmbedded?.properties._links).toBeUndefined();
    expect(schemas.VpnManager?.properties.password).toMatchObject({ const: '********' });
  });

  it('success and errors per status: 201 / 200 / 204 / 202 / 304, the error shape with _issues, a bulk 422 with _items', () => {
    expect(Object.keys(op('post', '/api/tasks').responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '413', '415', '422', '429']),
    );
    expect(op('post', '/api/tasks').responses['422']?.$ref).toBe('#/components/responses/Error422Bulk');
    // One shape for a create's 422, single or bulk: `_issues` reads without narrowing a union.
    expect(doc.components.responses.Error422Bulk?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/CreateError',
    });
    expect(Object.keys(schemas.CreateError?.properties ?? {})).toEqual([
      '_status',
      '_error',
      '_issues',
      '_items',
    ]);
    // A multipart-only create (files) cannot be bulk: one answer, a plain 422.
    expect(op('post', '/api/files').responses['201']?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/FileWritten',
    });
    expect(op('post', '/api/files').responses['422']?.$ref).toBe('#/components/responses/Error422');
    expect(op('patch', '/api/tasks/{id}').responses['422']?.$ref).toBe('#/components/responses/Error422');
    expect(schemas.Error?.properties._issues).toEqual({ $ref: '#/components/schemas/Issues' });
    expect(op('get', '/api/tasks/{id}').responses['304']).toBeDefined();
    expect(op('get', '/api/files/{id}').responses['304']).toBeUndefined();
    expect(op('delete', '/api/tasks/{id}').responses['204']).toBeDefined();
    const graph = op('post', '/api/graph').responses;
    expect(graph['202']?.content['application/json']?.schema.properties.state).toBeDefined();
    // 200: request_ips' job ended within the wait (done or failed), or build_graph's root.
    const done = graph['200']?.content['application/json']?.schema.anyOf as
      { properties: Record<string, { enum?: string[] }> }[] | undefined;
    expect(done?.map((m) => Object.keys(m.properties).includes('gateways'))).toEqual([false, true]);
    expect(done?.[0]?.properties.state?.enum).toEqual(['done', 'failed']);
    expect(op('get', '/api/hosts/{id}/vpn_profile').responses['200']?.content).toHaveProperty(['*/*']);
  });
});
