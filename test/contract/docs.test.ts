// /docs is Swagger UI served by the service itself: the page loads only same-origin files (relative
// URLs, so it works under an API stage path), sends a strict CSP, and stays small.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
before(async () => {
  stack = await startTestStack();
});
after(async () => stack?.close());

test('/docs is a small Swagger UI page whose every script and stylesheet the service serves', async () => {
  const page = await fetch(`${stack.url}/docs`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'(;|$)/, 'scripts from this origin only, none inline');
  assert.match(csp, /style-src 'self'(;|$)/);
  const html = await page.text();
  assert.ok(html.length < 2000, `the page is ${html.length} bytes`);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  assert.doesNotMatch(html, /\sstyle=|<style/, 'no inline style');
  const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  assert.ok(urls.length >= 3, `assets referenced: ${urls.join(', ')}`);
  for (const u of urls) assert.doesNotMatch(u, /^(https?:)?\/\//, `${u} is relative (no CDN, any base path)`);
  const base = new URL(`${stack.url}/docs`);
  const bodies: Record<string, string> = {};
  for (const u of urls) {
    const r = await fetch(new URL(u, base));
    assert.equal(r.status, 200, u);
    if (u.includes('asset=')) assert.match(r.headers.get('content-type') ?? '', u.includes('.css') ? /^text\/css/ : /^text\/javascript/, u);
    bodies[u] = await r.text();
  }
  const bundle = Object.entries(bodies).find(([u]) => u.includes('swagger-ui-bundle.js'));
  assert.ok(bundle && bundle[1].includes('SwaggerUIBundle'), 'the Swagger UI bundle itself is served');
  const init = Object.entries(bodies).find(([u]) => u.includes('init.js'));
  assert.ok(init && /openapi\.json/.test(init[1]), 'the page starts on this service\'s document');
});

test('an unknown /docs asset is a 422, not a file read', async () => {
  const r = await stack.call('GET', '/docs?asset=..%2Fpackage.json');
  assert.equal(r.status, 422);
  assert.deepEqual(r.body.detail[0].loc, ['query', 'asset']);
});
