/**
 * The drift check of the test harness (test/helpers/openapi-check.ts) is no rubber stamp: it
 * refuses answers that leave the document (a wrong value, an undeclared field, a missing meta
 * field, an undocumented status, a body where none is documented, another media type) and
 * accepts every shape the document allows (projections, embedded items, dangling references, 304).
 */
import { apiDocument, createRegistry } from '../../engine/src';
import { allResources, allRouteGroups } from '../../resources';
import { openApiChecker, type CheckedResponse } from '../helpers/openapi-check';

const checker = openApiChecker(apiDocument(createRegistry(allResources, allRouteGroups)));
const URL = 'http://127.0.0.1:1';
const DATE = 'Wed, 25 Nov 2026 21:08:02 GMT';
const meta = { _id: 'web-1.fleet.test', _etag: '0f3c', _created: DATE, _updated: DATE };
const host = { ...meta, status: 'up', _links: { self: { title: 'Host', href: 'hosts/web-1.fleet.test' } } };
const page = (items: unknown[]) => ({
  _items: items,
  _links: { parent: { title: 'home', href: '/' }, self: { title: 'hosts', href: 'hosts' } },
  _meta: { page: 1, max_results: 25, total: items.length },
});
const json = (status: number, body: unknown): CheckedResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
  text: JSON.stringify(body),
});
const check = (method: string, path: string, res: CheckedResponse) =>
  checker.check(method, `${URL}${path}`, res);

describe('accepted', () => {
  it('every shape the document allows', () => {
    expect(check('GET', '/api/hosts?projection={"status":1}', json(200, page([host])))).toBeNull();
    const group = { ...meta, _id: '6566d7e2a1b2c3d4e5f60718', name: 'web', type: 0, subgroups: [] };
    expect(
      check(
        'GET',
        '/api/hosts/web-1.fleet.test',
        json(200, { ...host, groups: [group, 'g2'], vpn_organization: null }),
      ),
    ).toBeNull();
    expect(
      check('GET', '/api/hosts/web-1.fleet.test', { status: 304, headers: {}, body: {}, text: '' }),
    ).toBeNull();
    expect(
      check('HEAD', '/api/hosts', {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: {},
        text: '',
      }),
    ).toBeNull();
    expect(
      check(
        'GET',
        '/api/nothing/here',
        json(404, { _status: 'ERR', _error: { code: 404, message: 'No route' } }),
      ),
    ).toBeNull();
    expect(
      check(
        'POST',
        '/api/actions',
        json(405, { _status: 'ERR', _error: { code: 405, message: 'not allowed' } }),
      ),
    ).toBeNull();
    expect(check('OPTIONS', '/api/hosts', { status: 204, headers: {}, body: {}, text: '' })).toBeNull();
    expect(
      check('GET', '/api/docs', {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: {},
        text: '<html>',
      }),
    ).toBeNull();
    expect(
      check('GET', '/api/hosts/statistics/unique_online', json(200, [{ hostnames: { up: [], all: [] } }])),
    ).toBeNull();
  });
});

describe('refused, saying why', () => {
  it('a value, a field or a meta field the schema does not allow', () => {
    expect(check('GET', '/api/hosts', json(200, page([{ ...host, status: 'sideways' }])))).toMatch(
      /\/_items\/0\/status must be equal to one of the allowed values[\s\S]*"sideways"/,
    );
    expect(check('GET', '/api/hosts/h', json(200, { ...host, colour: 'red' }))).toMatch(
      /must NOT have additional properties[\s\S]*colour/,
    );
    const { _etag: _e, ...noEtag } = host;
    expect(check('GET', '/api/hosts/h', json(200, noEtag))).toMatch(/must have required property '_etag'/);
    expect(check('GET', '/api/hosts/h', json(200, { ...host, _updated: '2026-11-25T21:08:02Z' }))).toMatch(
      /\/_updated must match pattern/,
    );
  });

  it('a status the operation does not list, and an answer to a path the document does not have', () => {
    expect(
      check('GET', '/api/hosts', json(418, { _status: 'ERR', _error: { code: 418, message: 'teapot' } })),
    ).toMatch(/status 418 is not documented for this operation \(documented: 200, 400, 401, 429, 500, 503\)/);
    expect(check('GET', '/api/nothing/here', json(200, {}))).toMatch(/no such operation/);
    expect(check('GET', '/api/hosts', json(400, { message: 'bad' }))).toMatch(
      /must have required property '_status'/,
    );
  });

  it('a body where none is documented, and a media type the response does not list', () => {
    expect(check('DELETE', '/api/tasks/t1', { status: 204, headers: {}, body: {}, text: '' })).toBeNull();
    expect(check('DELETE', '/api/tasks/t1', json(204, { _status: 'OK' }))).toMatch(
      /lists no body, the answer has one \(application\/json\)/,
    );
    expect(
      check('GET', '/api/hosts', {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: {},
        text: '<html>',
      }),
    ).toMatch(/answered text\/html, the document lists application\/json/);
  });
});
