// The interactive /docs page: Swagger UI (swagger-ui-dist) with every file served by the service
// itself, so it works offline and under a strict Content-Security-Policy (no inline script or style,
// nothing from another origin). The page is a few hundred bytes; the two Swagger UI files are sent
// with a long cache lifetime under a versioned URL. On AWS the files travel in the Lambda bundle
// (lib/ copies them into swagger-ui/ beside index.mjs when the bundle contains ASSETS_MARKER).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceUnavailable } from '../errors';
import type { DOCS_ASSETS } from '../schemas/docs';

export type DocsAsset = (typeof DOCS_ASSETS)[number];

/** lib/ greps the bundle for this text to know the function needs the Swagger UI files. */
export const ASSETS_MARKER = 'swagger-ui assets are missing from this bundle';

/** The swagger-ui-dist files the page needs (lib/ copies exactly these into the Lambda bundle). */
export const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'package.json'] as const;

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const INIT_JS = `// Starts Swagger UI on this service's own OpenAPI document (relative: works under an API stage path).
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: new URL('openapi.json', window.location.href).href, dom_id: '#swagger-ui', deepLinking: true, layout: 'BaseLayout' });
});
`;

/** Where the swagger-ui-dist files are: beside the bundle on AWS, in node_modules locally. */
function assetsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'swagger-ui');
  if (existsSync(join(bundled, 'swagger-ui-bundle.js'))) return bundled;
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    throw new ServiceUnavailable(ASSETS_MARKER); // a deployment fault, not the caller's
  }
}

let version: string | undefined;
export function swaggerUiVersion(): string {
  return (version ??= (JSON.parse(readFileSync(join(assetsDir(), 'package.json'), 'utf8')) as { version: string }).version);
}

const cache = new Map<DocsAsset, string>();

/** An asset's text and media type. */
export function docsAsset(name: DocsAsset): { body: string; type: string } {
  const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  if (name === 'init.js') return { body: INIT_JS, type };
  let body = cache.get(name);
  if (body === undefined) {
    body = readFileSync(join(assetsDir(), name), 'utf8');
    cache.set(name, body);
  }
  return { body, type };
}

/** The page: relative URLs only (docs?asset=..., openapi.json), so it works under any base path. */
export function docsPage(): string {
  const v = encodeURIComponent(swaggerUiVersion());
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Workflow Processing Service API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="docs?asset=swagger-ui.css&amp;v=${v}"></head>
<body><div id="swagger-ui"><noscript>The interactive reference needs JavaScript: the raw description is at <a href="openapi.json">openapi.json</a>.</noscript></div>
<script src="docs?asset=swagger-ui-bundle.js&amp;v=${v}"></script><script src="docs?asset=init.js&amp;v=${v}"></script></body></html>`;
}
