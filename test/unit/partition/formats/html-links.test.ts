// Links in HTML text: metadata.link_urls / link_texts / link_start_indexes, where each link starts in
// its element's text (white space laid out as in the text). A block of thousands of links (a site map,
// a tag cloud, a footer of links) is read in time linear in its size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';

test('html: link start indexes count the text before each link as laid out, spaces collapsed', async () => {
  const html = `<p>  See   the\n <a href="/a">first  link</a>and<a href="/b"> second</a>   then
    <a href="/c">third</a>.</p>`;
  const [p] = await partition('html', html);
  assert.equal(p!.text, 'See the first linkand second then third.');
  assert.deepEqual(p!.metadata.link_texts, ['first link', 'second', 'third']);
  assert.deepEqual(p!.metadata.link_start_indexes, [8, 22, 34]);
  for (const [k, start] of p!.metadata.link_start_indexes!.entries()) {
    assert.ok(p!.text.slice(start).startsWith(p!.metadata.link_texts![k]!));
  }
});

test('html: a block of 20,000 links is partitioned in seconds, every link in place', { timeout: 20_000 }, async () => {
  const n = 20_000;
  const html = `<div>${Array.from({ length: n }, (_, i) => `<a href="/p/${i}">Page number ${i}</a>`).join(' | ')}</div>`;
  const t0 = Date.now();
  const [block] = await partition('html', html);
  const elapsed = Date.now() - t0;
  assert.equal(block!.metadata.link_urls!.length, n);
  const starts = block!.metadata.link_start_indexes!;
  assert.equal(block!.text.slice(starts[n - 1]!, starts[n - 1]! + 17), `Page number ${n - 1}`);
  assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
});
