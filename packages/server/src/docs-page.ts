/**
 * `/api/docs`: the API's reference in a browser, drawn by Swagger UI from `/api/openapi.json`
 * (no token needed for either). The viewer's files are served from the swagger-ui-dist
 * package itself, so the page loads nothing from any other host and works offline.
 *
 * The page has its own Content-Security-Policy: the API's (`default-src 'none'`,
 * security-headers.ts) would stop the viewer, and this one allows only our origin's scripts,
 * styles and fetches; the start-up script is a file of ours rather than an inline script, so no
 * `'unsafe-inline'` is needed. `validatorUrl: null` keeps Swagger UI from sending the document to
 * validator.swagger.io (its default, https://github.com/swagger-api/swagger-ui/blob/master/docs/usage/configuration.md).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Router } from 'express';
import { z } from 'zod';

/** The page's policy: our own scripts, styles, images (and the inline SVG icons the CSS holds as data: URLs). */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The files of swagger-ui-dist the page uses: nothing else of the package is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'swagger-ui-bundle.js',
  'swagger-ui.css': 'swagger-ui.css',
  'favicon.png': 'favicon-32x32.png',
};

/** Where swagger-ui-dist is installed, and its version (it names the asset URLs, so they never go stale). */
function viewerPackage(): { dir: string; version: string } {
  const manifest = require.resolve('swagger-ui-dist/package.json');
  const { version } = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(manifest, 'utf8')));
  return { dir: dirname(manifest), version };
}

function page(assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fleet API reference</title>
<link rel="icon" type="image/png" href="${assets}/favicon.png">
<link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;
}

/** Swagger UI's start-up, as its `swagger-initializer.js` does it, with our document and options. */
const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#docs',
  deepLinking: true,
  docExpansion: 'list',
  validatorUrl: null,
  persistAuthorization: false,
});
`;

/** The router mounted at `/api/docs`; anything else below it (the OpenAPI alias) passes on to the API. */
export function docsPage(): Router {
  const viewer = viewerPackage();
  const assets = `/api/docs/assets/${viewer.version}`;
  const html = page(assets);
  const router = Router({ caseSensitive: true });
  router.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  });
  router.get('/start.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('js').send(START);
  });
  router.get('/assets/:version/:file', (req, res, next) => {
    const file = ASSETS[String(req.params.file)];
    if (req.params.version !== viewer.version || file === undefined) return next();
    // The URL names the version: a new one is a new URL, so the files may be kept for good. The
    // package lives below pnpm's `.pnpm` folder, which `send` would refuse as a dotfile.
    res.sendFile(join(viewer.dir, file), {
      dotfiles: 'allow',
      headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
    });
  });
  return router;
}
