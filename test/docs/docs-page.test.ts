/**
 * The docs page in a real browser: headless Chromium opens /api/docs with no token, Swagger UI
 * (served from our origin) reads /api/openapi.json and shows every tag and every operation of the
 * document, so every resource and route group; nothing is requested from another origin (it
 * works offline), no request fails, no script error, and nothing breaks the page's CSP.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers';
import { browserAvailable, launchBrowser } from './chromium';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Document {
  readonly paths: Record<string, Partial<Record<(typeof METHODS)[number], { tags?: string[] }>>>;
}

/** `METHOD /path` of every operation, and every tag (Swagger UI files untagged operations under `default`). */
function operationsOf(doc: Document): { operations: string[]; tags: string[] } {
  const operations: string[] = [];
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations.push(`${method.toUpperCase()} ${path}`);
      for (const tag of op.tags ?? ['default']) tags.add(tag);
    }
  }
  return { operations: operations.sort(), tags: [...tags].sort() };
}

/** What the page shows: each operation block's method and path, each tag section's name, and any error box. */
async function shown(page: Page): Promise<{ operations: string[]; tags: string[]; errors: number }> {
  const operations: string[] = [];
  for (const block of await page.locator('.opblock').all()) {
    const method = await block.locator('.opblock-summary-method').textContent();
    const path = await block.locator('.opblock-summary-path').getAttribute('data-path');
    operations.push(`${method ?? ''} ${path ?? ''}`);
  }
  const tags = await Promise.all(
    (await page.locator('.opblock-tag-section .opblock-tag').all()).map(
      async (tag) => (await tag.getAttribute('data-tag')) ?? '',
    ),
  );
  return {
    operations: operations.sort(),
    tags: tags.sort(),
    errors: await page.locator('.errors-wrapper').count(),
  };
}

const run = browserAvailable('test/docs/docs-page') ? describe : describe.skip;

run('/api/docs in headless Chromium', () => {
  let t: TestServer;
  let browser: { context: BrowserContext; close(): Promise<void> };
  beforeAll(async () => {
    t = await startTestServer();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows every tag and operation of the document, from our origin only, within its CSP', async () => {
    const doc = (await t.request.get('/api/openapi.json')).body as Document;
    const expected = operationsOf(doc);
    const page = await browser.context.newPage();
    const foreign: string[] = [];
    const failed: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== t.url && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText ?? ''}`));
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    const res = await page.goto(`${t.url}/api/docs`);
    expect(res?.status()).toBe(200);
    // Swagger UI draws once the document is read: wait for the last operation block.
    await page
      .locator('.opblock')
      .nth(expected.operations.length - 1)
      .waitFor({ timeout: 20_000 });

    const seen = await shown(page);
    expect(seen.operations).toEqual(expected.operations);
    expect(seen.tags).toEqual(expected.tags);
    expect(seen.errors).toBe(0);
    // Every resource served over HTTP and every route group is on the page.
    for (const res of t.engine.registry.resources.values())
      if (res.def.methods.list) expect(seen.operations).toContain(`GET /api/${res.name}`);
    for (const group of t.engine.registry.groups.values())
      expect(seen.operations.some((op) => op.includes(` /api/${group.base}/`))).toBe(true);
    expect(await page.title()).toBe('Fleet API reference');
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
  });
});
