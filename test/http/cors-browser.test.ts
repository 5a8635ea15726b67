/**
 * CORS and media links in a real browser (headless Chromium), from a page on another origin, as a
 * frontend would use the API: a bearer GET reads the exposed headers, a second identical call
 * needs no preflight (Access-Control-Max-Age), and an `<img>` opens a file's signed `data` link
 * with no header at all, while the bare media path (which needs the bearer header) does not load.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, startTestServer, TOKENS, uniqueName, type TestServer } from '../helpers';
import { browserAvailable, launchBrowser } from '../docs/chromium';

/** A 4x4 PNG: an image the browser decodes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAD0lEQVR4nGNgaPiPQMRxAF7CF/FUdRSEAAAAAElFTkSuQmCC',
  'base64',
);

const run = browserAvailable('test/http/cors-browser') ? describe : describe.skip;

run('a page on another origin', () => {
  let api: TestServer;
  let app: Server;
  let appUrl: string;
  let html = '';
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    // The frontend's origin: another port of the loopback, so another origin for the browser.
    app = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html),
    );
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    api = await startTestServer({ env: { CORS_ORIGINS: appUrl }, logLevel: 'info' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await new Promise((resolve) => app?.close(resolve));
  });

  it('calls the API with a bearer token, reads X-Total-Count, and preflights once', async () => {
    html = '<!doctype html><title>app</title>';
    const page = await browser.context.newPage();
    await page.goto(appUrl);
    const call = () =>
      page.evaluate(
        async ({ url, token }) => {
          const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
          return { status: res.status, total: res.headers.get('X-Total-Count') };
        },
        { url: `${api.url}/api/hosts?max_results=1`, token: TOKENS.viewer },
      );
    expect(await call()).toEqual({ status: 200, total: '0' });
    expect(await call()).toEqual({ status: 200, total: '0' });
    const preflights = api
      .logs()
      .split('\n')
      .filter((line) => line.includes('"method":"OPTIONS"') && line.includes('"path":"/api/hosts"'));
    expect(preflights).toHaveLength(1);
  });

  it("shows a file's signed link in an <img>, and not the bare media path", async () => {
    const created = await api.request
      .post('/api/files')
      .set(auth('operator'))
      .field('name', uniqueName('logo'))
      .attach('data', PNG, { filename: 'logo.png', contentType: 'image/png' });
    const item = await api.request.get(`/api/files/${String(created.body._id)}`).set(auth('viewer'));
    const signed = `${api.url}${String(item.body.data)}`;
    const bare = signed.slice(0, signed.indexOf('?'));
    html = `<!doctype html><title>app</title><img id="signed" src="${signed.replace(/&/g, '&amp;')}"><img id="bare" src="${bare}">`;
    const page = await browser.context.newPage();
    await page.goto(appUrl);
    await page.waitForFunction('[...document.images].every((img) => img.complete)');
    expect(await page.evaluate('document.getElementById("signed").naturalWidth')).toBe(4);
    expect(await page.evaluate('document.getElementById("bare").naturalWidth')).toBe(0);
  });
});
