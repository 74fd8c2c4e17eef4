// Health check, the OpenAPI document and a readable docs page. No API key needed.
import { httpRoute } from '../http/handler';
import { routeById, ROUTES } from '../routes';
import { reply, text } from '../http/response';
import { buildOpenApi } from '../openapi';

export const healthcheck = httpRoute(routeById('healthcheck'), async () => ({
  healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!',
}));

let cachedDoc: unknown;
export const openapi = httpRoute(routeById('openapi'), async () => (cachedDoc ??= buildOpenApi()));

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A self-contained page (no CDN: the service runs offline) listing every operation. */
export const docs = httpRoute(routeById('docs'), async () => {
  const rows = ROUTES.map(
    (r) =>
      `<tr><td class="m ${r.method.toLowerCase()}">${r.method}</td><td><code>${escape(r.path)}</code></td><td>${escape(r.summary)}</td><td>${r.status ?? 200}</td></tr>`,
  ).join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Workflow Processing Service API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}.m{font-weight:bold}.get{color:#2a7}.post{color:#27a}
.put,.patch{color:#a72}.delete{color:#a22}</style></head><body>
<h1>Workflow Processing Service API</h1>
<p>OpenAPI 3.1.0 description: <a href="openapi.json">openapi.json</a>. Authenticate with the <code>service-api-key</code>
(or <code>unstructured-api-key</code>) header when the deployment is keyed.</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Success</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
  return reply(text(200, html, 'text/html; charset=utf-8'));
});
