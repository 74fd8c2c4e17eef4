// Element hierarchy (partition/hierarchy.ts, run by post-process.ts for every format): parent_id as the
// open-source library's set_element_hierarchy sets it, category_depth of PDF/OCR titles from their
// text size ranked over the whole document, and both surviving a job's page-range fan-out.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { makeElement, type Element } from '../../../lambdas/engine/elements';
import { rankTitleDepths, setElementHierarchy, TITLE_SIZE_KEY } from '../../../lambdas/engine/partition/hierarchy';
import { postProcess } from '../../../lambdas/engine/partition/post-process';
import { partitionDocument } from '../../../lambdas/engine/partition/pipeline';
import { DEFAULT_PARTITION_OPTIONS } from '../../../lambdas/engine/partition/types';
import { pageEngine } from '../../../lambdas/domain/node-runner';
import type { JobNode } from '../../../lambdas/domain/job-nodes';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';
import { cjkPdf, type Run } from '../../support/cjk-pdf';

const corpus = resolve(import.meta.dirname, '../../../../shared/corpus');
after(() => shutdownPagePool());

const el = (type: string, id: string, depth?: number, parent?: string): Element => ({
  type, element_id: id, text: `${type} ${id}`, metadata: { ...(depth === undefined ? {} : { category_depth: depth }), ...(parent ? { parent_id: parent } : {}) },
});
const parents = (els: Element[]) => els.map((e) => e.metadata.parent_id ?? null);

describe('setElementHierarchy: the library rules', () => {
  it('a Title holds text; a Header holds Titles and text', () => {
    const els = setElementHierarchy([el('Title', '0'), el('UncategorizedText', '1'), el('Header', '2'), el('UncategorizedText', '3'), el('Title', '4'), el('UncategorizedText', '5')]);
    assert.deepEqual(parents(els), [null, '0', null, '2', '2', '4']);
  });

  it('category_depth orders elements of one type only', () => {
    const same = setElementHierarchy([el('Title', '0', 1), el('ListItem', '1', 0), el('ListItem', '2', 1), el('ListItem', '3', 0)]);
    assert.deepEqual(parents(same), [null, '0', '1', '0']);
    const mixed = setElementHierarchy([el('Title', '0', 2), el('UncategorizedText', '1', 0), el('Header', '2', 2), el('UncategorizedText', '3', 0), el('ListItem', '4', 1), el('NarrativeText', '5', 0)]);
    assert.deepEqual(parents(mixed), [null, '0', null, '2', '2', '2']);
  });

  it('keeps a parent_id already set and leaves that element out of the stack', () => {
    const els = setElementHierarchy([el('Title', '0', undefined, 'x'), el('Title', '1'), el('UncategorizedText', '2')]);
    assert.deepEqual(parents(els), ['x', null, '1']);
  });

  it('a type no rule lists (Image, Footer, PageBreak, CodeSnippet) ends the section', () => {
    const els = setElementHierarchy([el('Title', '0'), el('NarrativeText', '1'), el('Image', '2'), el('NarrativeText', '3'), el('Title', '4'), el('CodeSnippet', '5'), el('Table', '6')]);
    assert.deepEqual(parents(els), [null, '0', null, null, null, null, null]);
  });

  it('gives the parent_ids of the library output of embedded-images.pdf (head-staging)', () => {
    const file = resolve(corpus, 'expected/head-staging/embedded-images.pdf.json');
    assert.ok(existsSync(file), `${file} is missing`);
    const expected = JSON.parse(readFileSync(file, 'utf8')) as Element[];
    assert.ok(expected.some((e) => e.metadata.parent_id), 'the reference has parent links');
    const ours = setElementHierarchy(expected.map((e) => ({ ...e, metadata: { ...e.metadata, parent_id: undefined } })).map((e) => {
      delete e.metadata.parent_id;
      return e;
    }));
    assert.deepEqual(parents(ours), expected.map((e) => e.metadata.parent_id ?? null));
  });

  it('is linear on a long flat document and a deep list', () => {
    const flat = Array.from({ length: 200_000 }, (_, i) => el(i % 100 ? 'NarrativeText' : 'Title', String(i)));
    const deep = Array.from({ length: 200_000 }, (_, i) => el('ListItem', `l${i}`, i));
    const t0 = Date.now();
    setElementHierarchy(flat);
    setElementHierarchy(deep);
    // a guard against quadratic work (minutes at this size), not a speed test: benchmarks measure speed
    assert.ok(Date.now() - t0 < 10_000, `${Date.now() - t0} ms`);
    assert.equal(flat[150]!.metadata.parent_id, '100');
    assert.equal(deep[199_999]!.metadata.parent_id, 'l199998');
  });
});

describe('rankTitleDepths', () => {
  it('ranks title sizes over the document, largest 0, near sizes one level; the size key never leaves', () => {
    const t = (size: number, depth?: number) => makeElement('Title', `t${size}`, { [TITLE_SIZE_KEY]: size, ...(depth === undefined ? {} : { category_depth: depth }) });
    const els = rankTitleDepths([t(14), t(24), t(13.5), t(18), t(11), t(24, 3), makeElement('NarrativeText', 'x', { [TITLE_SIZE_KEY]: 30 })]);
    assert.deepEqual(els.map((e) => e.metadata.category_depth), [2, 0, 2, 1, 3, 3, undefined]);
    assert.ok(els.every((e) => !(TITLE_SIZE_KEY in e.metadata)));
  });

  it('numbered headings nest by their numbers where sizes do not tell (a third level at the second\'s size)', () => {
    const t = (text: string, size: number) => makeElement('Title', text, { [TITLE_SIZE_KEY]: size });
    const els = setElementHierarchy(rankTitleDepths([
      t('A Study of Stations', 17), t('1 Introduction', 14), t('1.1 Background', 12), t('1.1.1 Prior campaigns', 11), t('2 Methods', 14), t('Acknowledgements', 14),
    ]));
    assert.deepEqual(els.map((e) => e.metadata.category_depth), [0, 1, 2, 3, 1, 1]);
    assert.equal(els[3]!.metadata.parent_id, els[2]!.element_id, '1.1.1 under 1.1');
    // a size rank alone (no numbers) or numbers of one depth only change nothing
    const flat = rankTitleDepths([t('2019 Results', 14), t('12 Monkeys', 12), t('3 Findings', 12)]);
    assert.deepEqual(flat.map((e) => e.metadata.category_depth), [0, 1, 1]);
  });
});

describe('postProcess sets the hierarchy for every format, on final ids', () => {
  it('parent_id names the final id of the parent; a page break ends a section', () => {
    const els = [
      makeElement('Title', 'Overview', { category_depth: 0, page_number: 1 }),
      makeElement('NarrativeText', 'The plan was approved by the board.', { page_number: 1 }),
      makeElement('NarrativeText', 'Work starts in the spring of next year.', { page_number: 2 }),
    ];
    const out = postProcess(structuredClone(els), 'a.pdf', 'pdf', { ...DEFAULT_PARTITION_OPTIONS, includePageBreaks: false });
    assert.match(out[0]!.element_id, /^[0-9a-f]{32}$/);
    assert.deepEqual(parents(out), [null, out[0]!.element_id, out[0]!.element_id]);
    const broken = postProcess(structuredClone(els), 'a.pdf', 'pdf', { ...DEFAULT_PARTITION_OPTIONS, includePageBreaks: true });
    assert.deepEqual(broken.map((e) => e.type), ['Title', 'NarrativeText', 'PageBreak', 'NarrativeText']);
    assert.deepEqual(parents(broken), [null, broken[0]!.element_id, null, null]);
  });

  it('HTML as the library records it: preamble, heading, body, list items, body after the list', async () => {
    const html = '<html>\n  <p>Preamble gets no category_depth or parent_id</p>\n  <h1>Heading gets category_depth but no parent_id</h1>\n'
      + '  <p>Body paragraph gets parent_id but no category_depth</p>\n  <ul>\n    <li>List item gets category_depth and parent_id</li>\n'
      + '    <li>Second list item gets category_depth and parent_id</li>\n  </ul>\n  <p>Body paragraph after list gets parent_id but no category_depth</p>\n</html>\n';
    const { elements: els } = await partitionDocument({ data: new TextEncoder().encode(html), filename: 'h.html' });
    assert.deepEqual(els.map((e) => [e.type, e.metadata.category_depth]), [
      ['NarrativeText', undefined], ['Title', 0], ['NarrativeText', undefined], ['ListItem', 1], ['ListItem', 1], ['NarrativeText', undefined],
    ]);
    const h = els[1]!.element_id;
    assert.deepEqual(parents(els), [null, null, h, h, h, h]);
  });

  it('Markdown: heading levels nest, nested list items hang under their item', async () => {
    const md = '# Guide\n\nThe tool reads every file you give it.\n\n## Install\n\n- download it\n  - from the site\n- unpack it\n\n### Notes\n\nThe archive is small enough.\n';
    const { elements: els } = await partitionDocument({ data: new TextEncoder().encode(md), filename: 'g.md' });
    const byText = new Map(els.map((e) => [e.text, e]));
    const parentText = (t: string) => els.find((e) => e.element_id === byText.get(t)!.metadata.parent_id)?.text ?? null;
    assert.deepEqual(els.map((e) => [e.type, e.metadata.category_depth]), [
      ['Title', 0], ['NarrativeText', undefined], ['Title', 1], ['ListItem', 1], ['ListItem', 2], ['ListItem', 1], ['Title', 2], ['NarrativeText', undefined],
    ]);
    assert.deepEqual(['The tool reads every file you give it.', 'Install', 'download it', 'from the site', 'unpack it', 'Notes', 'The archive is small enough.'].map(parentText),
      ['Guide', 'Guide', 'Install', 'download it', 'Install', 'Install', 'Notes']);
  });
});

// A two-page report: 24 pt and 16 pt titles on page 1, a 16 pt and a 13 pt title on page 2, 11 pt text.
const body = (y: number, lines: string[]): Run[] => lines.map((text, i) => ({ text, x: 72, y: y - i * 14, size: 11 }));
const report = () => cjkPdf([
  { runs: [
    { text: 'Annual Report', x: 72, y: 760, size: 24 },
    ...body(720, ['The company grew its revenue in every region during the year and', 'expects the growth to continue in the coming year as well.']),
    { text: 'Market Overview', x: 72, y: 660, size: 16 },
    ...body(630, ['Demand for the products rose steadily while prices remained', 'stable across the main markets of the company.']),
  ] },
  { runs: [
    { text: 'Risk Factors', x: 72, y: 760, size: 16 },
    ...body(730, ['Several risks could affect the results of the company in the', 'coming years, as the following sections explain in detail.']),
    { text: 'Currency Risk', x: 72, y: 680, size: 13 },
    ...body(655, ['Exchange rates move often and change the value of sales made abroad.']),
  ] },
]);

describe('PDF titles: depth from text size, parents across pages and page ranges', () => {
  it('one pass: 24 pt → 0, 16 pt → 1, 13 pt → 2; text under the nearest title, page 2 under page 1', async () => {
    const { elements: els } = await partitionDocument({ data: report(), filename: 'report.pdf' }, { strategy: 'fast' });
    const titles = els.filter((e) => e.type === 'Title');
    assert.deepEqual(titles.map((e) => [e.text, e.metadata.category_depth]), [['Annual Report', 0], ['Market Overview', 1], ['Risk Factors', 1], ['Currency Risk', 2]]);
    const textOf = new Map(els.map((e) => [e.element_id, e.text]));
    assert.deepEqual(els.map((e) => [e.text.slice(0, 12), e.metadata.parent_id ? textOf.get(e.metadata.parent_id) : null]), [
      ['Annual Repor', null], ['The company ', 'Annual Report'], ['Market Overv', 'Annual Report'], ['Demand for t', 'Market Overview'],
      ['Risk Factors', 'Annual Report'], ['Several risk', 'Risk Factors'], ['Currency Ris', 'Risk Factors'], ['Exchange rat', 'Currency Risk'],
    ]);
    assert.ok(els.every((e) => !(TITLE_SIZE_KEY in e.metadata)));
  });

  it('page ranges partitioned apart and merged give the same depths and parent links as one pass', async () => {
    const data = report();
    const one = (await partitionDocument({ data, filename: 'report.pdf' }, { strategy: 'fast' })).elements;
    const parts = [];
    for (const page of [1, 2]) {
      const r = await partitionDocument({ data, filename: 'report.pdf' }, { strategy: 'fast' }, { pages: { first: page, last: page }, raw: true });
      parts.push({ elements: r.elements, filetype: r.filetype, filename: 'report.pdf' });
    }
    const node = { id: 'n0', name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } } as JobNode;
    const merged = pageEngine.merge(node, JSON.parse(JSON.stringify(parts)), 'report.pdf');
    assert.deepEqual(merged, one);
  });
});
