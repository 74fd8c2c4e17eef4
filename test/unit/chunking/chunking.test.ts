import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeElement, type Element, type ElementMetadata } from '../../../lambdas/engine/elements';
import { chunkElements, chunkElementsAsync, decodeOrigElements } from '../../../lambdas/engine/chunking/index';

const words = (n: number, w = 'word') => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
const el = (type: string, text: string, md: ElementMetadata = {}) => makeElement(type, text, { filename: 'doc.pdf', filetype: 'application/pdf', page_number: 1, languages: ['eng'], ...md });

test('basic fills chunks up to max_characters and joins element texts with a blank line', () => {
  const els = [el('NarrativeText', 'a'.repeat(40)), el('NarrativeText', 'b'.repeat(40)), el('NarrativeText', 'c'.repeat(40))];
  const chunks = chunkElements(els, { strategy: 'basic', max_characters: 90, include_orig_elements: false });
  assert.deepEqual(chunks.map((c) => c.text), [`${'a'.repeat(40)}\n\n${'b'.repeat(40)}`, 'c'.repeat(40)]);
  assert.ok(chunks.every((c) => c.type === 'CompositeElement'));
});

test('new_after_n_chars closes a chunk early (soft limit); 0 puts each element alone', () => {
  const els = [el('NarrativeText', 'x'.repeat(30)), el('NarrativeText', 'y'.repeat(30)), el('NarrativeText', 'z'.repeat(30))];
  const soft = chunkElements(els, { strategy: 'basic', max_characters: 200, new_after_n_chars: 50 });
  assert.equal(soft.length, 2);
  const each = chunkElements(els, { strategy: 'basic', max_characters: 200, new_after_n_chars: 0 });
  assert.equal(each.length, 3);
});

test('oversized element is split at word boundaries, continuation flagged, never mid-word', () => {
  const text = words(200);
  const chunks = chunkElements([el('NarrativeText', text)], { strategy: 'basic', max_characters: 100 });
  assert.ok(chunks.length > 5);
  const vocab = new Set(text.split(' '));
  for (const [i, c] of chunks.entries()) {
    assert.ok(c.text.length <= 100, `chunk ${i} too long`);
    for (const w of c.text.split(' ')) assert.ok(vocab.has(w), `mid-word split: ${w}`);
    assert.equal(c.metadata.is_continuation, i > 0 ? true : undefined);
  }
  assert.equal(chunks.map((c) => c.text).join(' '), text);
});

test('a single word longer than the window is cut; overlap repeats the tail', () => {
  const chunks = chunkElements([el('NarrativeText', 'q'.repeat(250))], { strategy: 'basic', max_characters: 100, overlap: 10 });
  assert.deepEqual(chunks.map((c) => c.text.length), [100, 100, 70]);
  const split = chunkElements([el('NarrativeText', words(60))], { strategy: 'basic', max_characters: 100, overlap: 20 });
  const [a, b] = split;
  // -- the second chunk starts with up to 19 trailing characters of the first, then a space --
  const tail = a!.text.slice(-19).trimStart();
  assert.ok(b!.text.startsWith(`${tail} `));
});

test('overlap_all prefixes whole-element chunks too', () => {
  const els = [el('NarrativeText', words(8, 'a')), el('NarrativeText', words(8, 'b'))];
  const plain = chunkElements(els, { strategy: 'basic', max_characters: 40, overlap: 10 });
  const all = chunkElements(els, { strategy: 'basic', max_characters: 40, overlap: 10, overlap_all: true });
  assert.equal(plain[1]!.text, words(8, 'b'));
  assert.ok(all[1]!.text.startsWith(plain[0]!.text.slice(-10).trim()));
});

test('by_title: titles start sections; small sections combine; multipage_sections=false breaks pages', () => {
  const els = [
    el('Title', 'Intro'),
    el('NarrativeText', 'First section body.'),
    el('Title', 'Second'),
    el('NarrativeText', 'Second body on page two.', { page_number: 2 }),
  ];
  const separate = chunkElements(els, { strategy: 'by_title', max_characters: 500, combine_text_under_n_chars: 0 });
  assert.deepEqual(separate.map((c) => c.text), ['Intro\n\nFirst section body.', 'Second\n\nSecond body on page two.']);
  const combined = chunkElements(els, { strategy: 'by_title', max_characters: 500 });
  assert.equal(combined.length, 1);
  const byPage = chunkElements(
    [el('NarrativeText', 'p1'), el('NarrativeText', 'p2', { page_number: 2 })],
    { strategy: 'by_title', multipage_sections: false, combine_text_under_n_chars: 0 },
  );
  assert.equal(byPage.length, 2);
});

test('by_page never mixes pages', () => {
  const els = [el('NarrativeText', 'one'), el('Title', 'two'), el('NarrativeText', 'three', { page_number: 2 }), el('NarrativeText', 'four', { page_number: 2 })];
  const chunks = chunkElements(els, { strategy: 'by_page' });
  assert.deepEqual(chunks.map((c) => [c.text, c.metadata.page_number]), [['one\n\ntwo', 1], ['three\n\nfour', 2]]);
});

test('by_similarity groups consecutive similar elements (built-in hashed embedder by default)', async () => {
  const skiing = ['Skiing on the snowy alpine slopes is fun.', 'Alpine skiing slopes covered in fresh snow.', 'Snow on alpine ski slopes.'];
  const cooking = ['Bake the bread dough in a hot oven.', 'Knead the bread dough before baking in the oven.'];
  const els = [...skiing, ...cooking].map((t) => el('NarrativeText', t));
  const chunks = chunkElements(els, { strategy: 'by_similarity', similarity_threshold: 0.2, max_characters: 1000 });
  assert.deepEqual(chunks.map((c) => c.text), [skiing.join('\n\n'), cooking.join('\n\n')]);
  // -- the range is (0, 1]: 0 would never split on similarity, and is refused --
  assert.throws(() => chunkElements(els, { strategy: 'by_similarity', similarity_threshold: 0, max_characters: 1000 }), /greater than 0\.0/);
  assert.equal(chunkElements(els, { strategy: 'by_similarity', similarity_threshold: 1, max_characters: 1000 }).length, 5);
  // -- any embedder can drive it: one that separates by first letter --
  const embedder = { embedTexts: async (ts: string[]) => ts.map((t) => (t.startsWith('B') || t.startsWith('K') ? [0, 1] : [1, 0])) };
  const viaEmbedder = await chunkElementsAsync(els, { strategy: 'by_similarity', max_characters: 1000 }, { embedder });
  assert.equal(viaEmbedder.length, 2);
});

test('metadata is consolidated: first filename/page, union of languages, concatenated emphasis', () => {
  const els = [
    el('NarrativeText', 'alpha', { page_number: 3, languages: ['eng'], emphasized_text_contents: ['alpha'], emphasized_text_tags: ['b'], parent_id: 'p', coordinates: { points: [[0, 0]], system: 'PixelSpace', layout_width: 1, layout_height: 1 } }),
    el('NarrativeText', 'beta', { page_number: 4, languages: ['fra', 'eng'], emphasized_text_contents: ['beta'], emphasized_text_tags: ['i'] }),
  ];
  const [c] = chunkElements(els, { strategy: 'basic' });
  assert.equal(c!.metadata.filename, 'doc.pdf');
  assert.equal(c!.metadata.page_number, 3);
  assert.deepEqual(c!.metadata.languages, ['eng', 'fra']);
  assert.deepEqual(c!.metadata.emphasized_text_contents, ['alpha', 'beta']);
  assert.equal(c!.metadata.parent_id, undefined);
  assert.equal(c!.metadata.coordinates, undefined);
  const orig = decodeOrigElements(c!.metadata.orig_elements!);
  assert.deepEqual(orig.map((e) => e.text), ['alpha', 'beta']);
  assert.equal(orig[0]!.element_id, els[0]!.element_id);
  const none = chunkElements(els, { strategy: 'basic', include_orig_elements: false });
  assert.equal(none[0]!.metadata.orig_elements, undefined);
});

test('chunk ids: library hash ids by default (deterministic), UUID4 with unique_element_ids', () => {
  const els = [el('NarrativeText', 'alpha'), el('Title', 'T'), el('NarrativeText', 'beta')];
  const a = chunkElements(els, { strategy: 'by_title', combine_text_under_n_chars: 0 });
  const b = chunkElements(els, { strategy: 'by_title', combine_text_under_n_chars: 0 });
  assert.deepEqual(a.map((c) => c.element_id), b.map((c) => c.element_id));
  assert.ok(a.every((c) => /^[0-9a-f]{32}$/.test(c.element_id)));
  assert.notEqual(a[0]!.element_id, a[1]!.element_id);
  const u = chunkElements(els, { strategy: 'basic', unique_element_ids: true });
  assert.match(u[0]!.element_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
});

function table(rows: string[][], header = true): Element {
  const html =
    `<table border="1">${header ? `<thead><tr>${rows[0]!.map((c) => `<th>${c}</th>`).join('')}</tr></thead>` : ''}<tbody>` +
    rows.slice(header ? 1 : 0).map((r) => `\n  <tr>${r.map((c) => `<td class="x"> ${c} </td>`).join('')}</tr>`).join('') +
    '</tbody></table>';
  return el('Table', rows.map((r) => r.join(' ')).join('\n'), { text_as_html: html });
}

test('a table that fits is kept whole, alone, with compact HTML', () => {
  const t = table([['Team', 'Cups'], ['Habs', '24']]);
  const chunks = chunkElements([el('NarrativeText', 'Before.'), t, el('NarrativeText', 'After.')], { strategy: 'basic' });
  assert.deepEqual(chunks.map((c) => c.type), ['CompositeElement', 'Table', 'CompositeElement']);
  assert.equal(chunks[1]!.metadata.text_as_html, '<table><tr><td>Team</td><td>Cups</td></tr><tr><td>Habs</td><td>24</td></tr></table>');
  assert.equal(chunks[1]!.text, 'Team Cups\nHabs 24');
});

test('an oversized table is split into TableChunks on row boundaries, each with its own HTML and repeated header', () => {
  const rows = [['Name', 'Value'], ...Array.from({ length: 30 }, (_, i) => [`row${i}`, `${i * 7}`])];
  const chunks = chunkElements([table(rows)], { strategy: 'by_title', max_characters: 120 });
  assert.ok(chunks.length > 2);
  const ids = new Set<unknown>();
  for (const [i, c] of chunks.entries()) {
    assert.equal(c.type, 'TableChunk');
    assert.ok(c.text.length <= 120, `chunk ${i} has ${c.text.length} chars`);
    assert.equal(c.metadata.chunk_index, i);
    assert.equal(c.metadata.is_continuation, i > 0 ? true : undefined);
    const html = c.metadata.text_as_html!;
    assert.match(html, /^<table>.*<\/table>$/);
    if (i > 0) {
      assert.ok(html.startsWith('<table><thead><tr><th>Name</th><th>Value</th></tr></thead>'));
      assert.ok(c.text.startsWith('Name Value '));
      assert.equal(c.metadata.num_carried_over_header_rows, 1);
    }
    ids.add(c.metadata.table_id);
  }
  assert.equal(ids.size, 1);
  // -- every data row appears exactly once across chunks --
  const body = chunks.flatMap((c) => [...c.metadata.text_as_html!.matchAll(/<td>(row\d+)<\/td>/g)].map((m) => m[1]));
  assert.deepEqual(body, rows.slice(1).map((r) => r[0]));
});

test('a table without HTML is text-split into TableChunks', () => {
  const t = el('Table', words(80));
  const chunks = chunkElements([t], { strategy: 'basic', max_characters: 100 });
  assert.ok(chunks.length > 1 && chunks.every((c) => c.type === 'TableChunk' && c.metadata.text_as_html === undefined));
});

test('input elements are not mutated', () => {
  const els = [el('NarrativeText', words(50)), table([['a', 'b'], ['c', 'd']])];
  const before = JSON.stringify(els);
  chunkElements(els, { strategy: 'by_title', max_characters: 50 });
  assert.equal(JSON.stringify(els), before);
});

test('chunkElementsAsync gives the same chunks as chunkElements (orig_elements compressed off-thread)', async () => {
  const els = [
    el('Title', 'Results'),
    el('NarrativeText', words(120)),
    table([['Name', 'Value'], ...Array.from({ length: 12 }, (_, i) => [`r${i}`, `${i}`])]),
    el('NarrativeText', 'Closing remark.', { page_number: 2 }),
  ];
  for (const strategy of ['basic', 'by_title', 'by_page', 'by_similarity'] as const) {
    const opts = { strategy, max_characters: 120 };
    const sync = chunkElements(els, opts);
    const viaAsync = await chunkElementsAsync(els, opts);
    assert.deepEqual(viaAsync, sync, strategy);
    assert.ok(sync.every((c) => typeof c.metadata.orig_elements === 'string'));
  }
});
