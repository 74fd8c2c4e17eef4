// PDFs from a producer nobody tuned for (issue 29): pages printed by Chromium (Skia), as users save
// web pages and reports. Skia draws ligatures from a font subset of their own, whose glyph boxes
// PDFium makes shorter than the line's around the same middle ("fi" | "fth" came apart); a
// justifier stretches spaces past an em; list bullets are drawn as shapes. Skips without chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { partitionDocument as partition } from '../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../lambdas/engine/partition/pdf/pool';
import { launch, NO_BROWSER } from '../support/browser';

let browser: Browser;
before(async () => { if (!NO_BROWSER) browser = await launch(); });
after(async () => { await browser?.close(); await shutdownPagePool(); });

async function printed(html: string): Promise<{ type: string; text: string }[]> {
  const page = await browser.newPage();
  await page.setContent(html);
  const pdf = await page.pdf({ format: 'A4', margin: { top: '2cm', bottom: '2cm', left: '2cm', right: '2cm' } });
  await page.close();
  const r = await partition({ data: new Uint8Array(pdf), filename: 'printed.pdf' }, { strategy: 'fast' });
  return r.elements.map((e) => ({ type: e.type, text: e.text }));
}

const PARA = (t: string) => `<p>${t}</p>`;

test('a printed report: ligatures kept inside their words, numbered headings are titles', { skip: NO_BROWSER }, async () => {
  const els = await printed(`<html><body style="font-family: sans-serif; font-size: 10.5pt">
    <h1>Annual Operations Report</h1>
    ${PARA('The offices handled a fifth more requests, and the first office filed its figures efficiently.')}
    <h2 style="font-size: 15pt">1. Overview</h2>
    ${PARA('Waiting times fell in every office, and the staff found the new forms simpler to fill in.')}
    <h2 style="font-size: 15pt">2. Priorities</h2>
    <ol><li>Open a third office in the north.</li><li>Move all forms online.</li></ol>
    <ul><li>Requests rose by a fifth.<ul><li>Online requests doubled.</li><li>Walk-in requests fell.</li></ul></li><li>Waiting times fell.</li></ul></body></html>`);
  const all = els.map((e) => e.text).join('\n');
  for (const w of ['fifth', 'first', 'filed', 'efficiently', 'figures', 'simpler to fill in']) {
    if (all.includes(w.replace(/fi/g, '\ufb01'))) continue; // a producer that keeps the ligature code point
    assert.ok(all.includes(w), `"${w}" whole in:\n${all}`);
  }
  assert.equal(els.find((e) => e.text === '1. Overview')?.type, 'Title', all);
  assert.equal(els.find((e) => e.text === '2. Priorities')?.type, 'Title', all);
  // the bullets are drawn as a disc and, nested, a circle: each item a list item of its own
  for (const t of ['Requests rose by a fifth.', 'Online requests doubled.', 'Walk-in requests fell.', 'Waiting times fell.']) {
    assert.ok(els.some((e) => e.type === 'ListItem' && e.text.endsWith(t) && e.text.length <= t.length + 2), `"${t}" a ListItem:\n${all}`);
  }
});

test('a printed two-column paper: the table in one column holds its own rows, justified lines stay whole', { skip: NO_BROWSER }, async () => {
  const prose = [
    'Retrieval systems depend on clean text. When documents are converted without their structure, headings merge with paragraphs, tables lose their rows and lists lose their items.',
    'This work measures how much of that structure survives conversion and what it costs in recall, and where conversion fails on documents from many producers.',
    'Earlier systems relied on rule based parsers that read the text layer of each page in content order. Such parsers break on multi-column layouts and on tables whose cells are drawn apart.',
  ];
  const els = await printed(`<html><head><style>
    body { font-family: serif; font-size: 11pt; } .cols { column-count: 2; column-gap: 24pt; text-align: justify; }
    table { border-collapse: collapse; margin: 8pt auto; } td, th { padding: 2pt 8pt; text-align: right; }
    thead tr { border-top: 1.5pt solid black; border-bottom: 0.8pt solid black; } tbody tr:last-child { border-bottom: 1.5pt solid black; }
    </style></head><body>
    <h1 style="text-align: center; font-size: 20pt">Scaling Retrieval with Structured Document Elements</h1>
    <p style="text-align: center">A. Author, B. Writer</p>
    <div class="cols"><h2>1 Introduction</h2>${prose.map(PARA).join('')}
    ${PARA('Tables without vertical rules are common in papers. Table 1 lists the results on our benchmark for each method we compared.')}
    <table><thead><tr><th>Method</th><th>Precision</th><th>Recall</th><th>F1</th></tr></thead>
    <tbody><tr><td>Rules</td><td>0.71</td><td>0.64</td><td>0.67</td></tr><tr><td>Layout</td><td>0.88</td><td>0.83</td><td>0.85</td></tr>
    <tr><td>Ours</td><td>0.93</td><td>0.91</td><td>0.92</td></tr></tbody></table>
    ${PARA('Our method reads glyph positions and font sizes, groups lines into blocks, and classifies each block with the sizes of the whole document.')}
    </div></body></html>`);
  const dump = els.map((e) => `${e.type}: ${e.text}`).join('\n');
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, dump);
  assert.equal(tables[0]!.text, 'Method Precision Recall F1 Rules 0.71 0.64 0.67 Layout 0.88 0.83 0.85 Ours 0.93 0.91 0.92', dump);
  // (a paragraph that runs on at the top of the next column may be two elements there)
  const text = els.filter((e) => e.type !== 'Table').map((e) => e.text).join(' ');
  for (const p of prose) assert.ok(text.includes(p), `"${p.slice(0, 40)}…" whole:\n${dump}`);
  assert.ok(!els.some((e) => e.type === 'Title' && e.text.split(' ').length === 1), `no one-word titles from stretched lines:\n${dump}`);
});
