// Health check, the OpenAPI document, the interactive docs page and the web console's files. No API
// key needed (the console asks for one and sends it to the API routes).
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { reply, text } from '../http/response';
import { buildOpenApi } from '../openapi';
import { CSP, docsAsset, docsPage } from '../openapi/docs-page';
import type { DocsQuery } from '../schemas/docs';
import type { ConsoleQuery } from '../schemas/console';
import { CONSOLE_CSP, consoleAsset, consolePage } from '../console/assets';
import type { z } from 'zod';

export const healthcheck = httpRoute(routeById('healthcheck'), async () => ({
  healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!',
}));

/** Documents by base path: behind an API Gateway stage the API lives under /<stage>. */
const documents = new Map<string, unknown>();
export const openapi = httpRoute(routeById('openapi'), async ({ event }) => {
  const full = event.requestContext?.path ?? event.path;
  const base = full && event.path && full.endsWith(event.path) ? full.slice(0, full.length - event.path.length) : '';
  if (!documents.has(base)) documents.set(base, buildOpenApi(base || undefined));
  return documents.get(base);
});

const SECURITY_HEADERS = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export const docsRoute = httpRoute(routeById('docs'), async ({ query }) => {
  const q = query as z.output<typeof DocsQuery>;
  if (q.asset) {
    const { body, type } = docsAsset(q.asset);
    return reply(text(200, body, type, { ...SECURITY_HEADERS, 'cache-control': 'public, max-age=604800, immutable' }));
  }
  return reply(text(200, docsPage(), 'text/html; charset=utf-8', { ...SECURITY_HEADERS, 'cache-control': 'no-cache' }));
});
export { docsRoute as docs };

const CONSOLE_HEADERS = { ...SECURITY_HEADERS, 'content-security-policy': CONSOLE_CSP };

export const consoleRoute = httpRoute(routeById('console'), async ({ query }) => {
  const q = query as z.output<typeof ConsoleQuery>;
  if (q.asset) {
    const { body, type } = consoleAsset(q.asset);
    return reply(text(200, body, type, { ...CONSOLE_HEADERS, 'cache-control': 'public, max-age=31536000, immutable' }));
  }
  return reply(text(200, consolePage(), 'text/html; charset=utf-8', { ...CONSOLE_HEADERS, 'cache-control': 'no-cache' }));
});
export { consoleRoute as console };
