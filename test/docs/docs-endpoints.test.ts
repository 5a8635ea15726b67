/**
 * The docs page and the OpenAPI document over HTTP, with no token: `/api/openapi.json` and its
 * alias `/api/docs/openapi.json` serve one document; `/api/docs` is a page with its own CSP
 * (our origin's scripts and styles only, no inline script), whose viewer files come from the
 * swagger-ui-dist package at versioned, immutable URLs; nothing else of the package is served,
 * and every other answer keeps the API's CSP that loads nothing.
 */
import { readFileSync } from 'node:fs';
import { expectEveError, startTestServer, type TestServer } from '../helpers';
import { DOCS_CSP } from '../../packages/server/src/docs-page';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const viewerVersion = (): string =>
  (
    JSON.parse(
      readFileSync(
        require.resolve('swagger-ui-dist/package.json', { paths: [`${__dirname}/../../packages/server`] }),
        'utf8',
      ),
    ) as { version: string }
  ).version;

describe('the OpenAPI document', () => {
  it('is served without a token at /api/openapi.json and, the same, at /api/docs/openapi.json', async () => {
    const main = await t.request.get('/api/openapi.json');
    expect(main.status).toBe(200);
    expect(main.headers['content-type']).toMatch(/^application\/json/);
    expect(main.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Fleet API' } });
    const alias = await t.request.get('/api/docs/openapi.json');
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(main.body);
  });
});

describe('GET /api/docs', () => {
  it('answers the page without a token, under its own CSP allowing only our origin', async () => {
    const res = await t.request.get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self'");
    expect(DOCS_CSP).not.toContain('unsafe');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const version = viewerVersion();
    expect(res.text).toContain(`<script src="/api/docs/assets/${version}/swagger-ui-bundle.js"></script>`);
    expect(res.text).toContain('<script src="/api/docs/start.js"></script>');
    // Every script is a file of ours: nothing inline, nothing from elsewhere.
    expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]|https?:\/\//);
    expect((await t.request.get('/api/docs/')).status).toBe(200);
  });

  it('starts Swagger UI on /api/openapi.json with the online validator off', async () => {
    const res = await t.request.get('/api/docs/start.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.text).toContain("url: '/api/openapi.json'");
    expect(res.text).toContain('validatorUrl: null');
  });

  it('serves the viewer files of its version for good, and nothing else of the package', async () => {
    const version = viewerVersion();
    const js = await t.request.get(`/api/docs/assets/${version}/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text).toContain('SwaggerUIBundle');
    const css = await t.request.get(`/api/docs/assets/${version}/swagger-ui.css`);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    for (const path of [
      `/api/docs/assets/${version}/index.html`,
      `/api/docs/assets/${version}/oauth2-redirect.html`,
      '/api/docs/assets/0.0.1/swagger-ui.css',
      `/api/docs/assets/${version}/..%2Fpackage.json`,
    ]) {
      expectEveError(await t.request.get(path), 404);
    }
  });

  it('leaves every other answer under the CSP that loads nothing', async () => {
    expect((await t.request.get('/api/health')).headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect((await t.request.get('/api/openapi.json')).headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});
