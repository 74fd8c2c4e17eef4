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

test('html: a documentation site\'s permalink beside a heading or caption ("¶", "#", a link sign) is no text of it; a same-page link with words is kept', async () => {
  const html = `<h1>Installation<a class="headerlink" href="#installation" title="Link to this heading">¶</a></h1>
    <h2><a class="hash-link" href="#usage">#</a> Usage</h2>
    <p>Run the installer, then read <a href="#usage">the usage notes</a> before the first start.</p>
    <h3 id="limits">Limits <a href="#limits" aria-label="Permalink"><span>\u{1F517}</span></a></h3>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'Title: Installation',
    'Title: Usage',
    'NarrativeText: Run the installer, then read the usage notes before the first start.',
    'Title: Limits',
  ]);
  assert.deepEqual(els[2]!.metadata.link_texts, ['the usage notes']);
});
