import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { joinLabels } from '../../../../lambdas/engine/partition/pdf/segment-joins';
import type { RawPage, Segment, Word } from '../../../../lambdas/engine/partition/pdf/page-text';

function seg(text: string, x0: number, y0: number, size = 10): Segment {
  const words: Word[] = [];
  let x = x0;
  for (const t of text.split(' ')) {
    const w = t.length * size * 0.5;
    words.push({ t, x0: x, x1: x + w, y0, y1: y0 + size, size } as unknown as Word);
    x += w + size * 0.3;
  }
  return { words, text, size, x0, y0, x1: x - size * 0.3, y1: y0 + size };
}

function page(lines: Segment[][]): RawPage {
  return {
    page: 1, width: 600, height: 800, images: [], links: [],
    lines: lines.map((segs) => ({ segs, x0: Math.min(...segs.map((s) => s.x0)), x1: Math.max(...segs.map((s) => s.x1)), y0: segs[0]!.y0, y1: segs[0]!.y1 })),
  } as unknown as RawPage;
}

test('a leading number label joins the text after it on the same line', () => {
  const joined = joinLabels([seg('1', 100, 200, 12), seg('Introduction', 120, 200, 12)]);
  assert.equal(joined.length, 1);
  assert.equal(joined[0]!.text, '1 Introduction');
  assert.equal(joined[0]!.x0, 100);
  assert.equal(joinLabels([seg('2.3', 100, 200), seg('Related Work', 125, 200)])[0]!.text, '2.3 Related Work');
  // far apart (another column), two numbers, or text first: unchanged
  assert.equal(joinLabels([seg('12', 100, 200), seg('Results', 300, 200)]).length, 2);
  assert.equal(joinLabels([seg('12', 100, 200), seg('34', 120, 200)]).length, 2);
  assert.equal(joinLabels([seg('Results', 100, 200), seg('12', 150, 200)]).length, 2);
});

test('a bullet set a tab stop before its item (a word processor\'s list) makes a list item of each line', () => {
  const els = layoutPage(page([
    [seg('The findings of the survey are listed below, one per line of the list:', 72, 100)],
    [seg('\u2022', 84, 120, 10), seg('Levels fell at most of the stations.', 108, 120)],
    [seg('\u2022', 84, 136, 10), seg('Turbidity rose after the storms, then fell.', 108, 136)],
    [seg('\u2022', 84, 152, 10), seg('Two stations need new sensors soon.', 108, 152)],
    [seg('o', 120, 168, 10), seg('One of them in the spring.', 144, 168)],
  ]), {});
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'The findings of the survey are listed below, one per line of the list:'],
    ['ListItem', 'Levels fell at most of the stations.'],
    ['ListItem', 'Turbidity rose after the storms, then fell.'],
    ['ListItem', 'Two stations need new sensors soon.'],
    ['ListItem', 'One of them in the spring.'],
  ]);
  // a nested list's dash or "o" is a bullet too; text far off is no item's
  assert.equal(joinLabels([seg('\u2013', 100, 200), seg('Nested item one', 124, 200)])[0]!.text, '\u2013 Nested item one');
  assert.equal(joinLabels([seg('o', 100, 200), seg('Nested item two', 124, 200)])[0]!.text, '\u25e6 Nested item two');
  assert.equal(joinLabels([seg('\u2022', 100, 200), seg('Results', 300, 200)]).length, 2);
});

test('a nested numbered list\'s "a." items are items of their own, under the numbered one', () => {
  const els = layoutPage(page([
    [seg('1. First step of the procedure for this part.', 84, 100)],
    [seg('a. A nested sub step with more detail.', 120, 116)],
    [seg('b. Another nested sub step.', 120, 132)],
    [seg('2. Second step of the procedure.', 84, 148)],
  ]), {});
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['ListItem', '1. First step of the procedure for this part.'],
    ['ListItem', 'a. A nested sub step with more detail.'],
    ['ListItem', 'b. Another nested sub step.'],
    ['ListItem', '2. Second step of the procedure.'],
  ]);
});

test('a lettered list whose items go on a sentence in small letters ("a. fill the ...") gives an item each', () => {
  const els = layoutPage(page([
    [seg('Every section of the pipework shall be pressure tested:', 84, 100)],
    [seg('a. fill the section with clean water and remove the air;', 84, 116)],
    [seg('b. raise the pressure and hold it for two hours;', 84, 132)],
    [seg('c. record the pressure every fifteen minutes.', 84, 148)],
    [seg('The test sheet is kept with the handover documents.', 84, 164)],
  ]), {});
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'Every section of the pipework shall be pressure tested:'],
    ['ListItem', 'a. fill the section with clean water and remove the air;'],
    ['ListItem', 'b. raise the pressure and hold it for two hours;'],
    ['ListItem', 'c. record the pressure every fifteen minutes.'],
    ['NarrativeText', 'The test sheet is kept with the handover documents.'],
  ]);
});

test('a line opening with a middle dot continues a dot-separated line', () => {
  const els = layoutPage(page([
    [seg('Some body text that is long enough to be the body of the page and more.', 100, 100)],
    [seg('Keywords: Document Image Analysis \u00b7 Deep Learning \u00b7 Layout Analysis', 100, 300)],
    [seg('\u00b7 Character Recognition \u00b7 Open Source library \u00b7 Toolkit.', 100, 311)],
  ]), {});
  const kw = els.find((e) => e.text.startsWith('Keywords'));
  assert.ok(kw);
  assert.match(kw.text, /Layout Analysis \u00b7 Character Recognition/);
  assert.equal(els.some((e) => e.type === 'ListItem'), false);
  // a real bullet list still starts new items
  const list = layoutPage(page([
    [seg('Some body text that is long enough to be the body of the page and more.', 100, 100)],
    [seg('\u00b7 first point of the list', 100, 300)],
    [seg('\u00b7 second point of the list', 100, 311)],
  ]), {});
  assert.equal(list.filter((e) => e.type === 'ListItem').length, 2);
  // a list item's bullet is layout (the library's clean_bullets): its text is the item's words
  assert.deepEqual(list.filter((e) => e.type === 'ListItem').map((e) => e.text), ['first point of the list', 'second point of the list']);
});

test('a box to tick opening a list item stays in its text (ticked or not is the answer)', () => {
  const els = layoutPage(page([
    [seg('Some body text that is long enough to be the body of the page and more.', 100, 100)],
    [seg('\u2022 a bullet point of the list', 100, 300)],
    [seg('\u2610 Yes, in person', 100, 320)],
    [seg('\u2612 No, online only', 100, 340)],
  ]), {});
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => e.text), ['a bullet point of the list', '\u2610 Yes, in person', '\u2612 No, online only']);
});

test('a long sentence-like block without a recognised verb is narrative text; short label text is not', () => {
  const els = layoutPage(page([
    [seg('Some body text that is long enough to be the body of the page and more.', 100, 100)],
    [seg('2 For instance, the exact match score on SQuAD v1.1 drops from above 80% to', 100, 300)],
    [seg('less than 40% (Yang et al., 2019a).', 100, 311)],
    [seg('Vol 3 Issue 4 2019', 100, 500)],
  ]), {});
  assert.equal(els.find((e) => e.text.startsWith('2 For instance'))?.type, 'NarrativeText');
  assert.notEqual(els.find((e) => e.text.startsWith('Vol 3'))?.type, 'NarrativeText');
});

test('a block of eight words or more that no rule types is body text, as a layout model labels it', () => {
  // the library's hi_res types a text region by its layout label (Text: NarrativeText), whatever
  // its verbs or capitals; an author line or a keyword line is such a region
  const els = layoutPage(page([
    [seg('Some body text that is long enough to be the body of the page and more.', 100, 100)],
    [seg('Ada Lovelace1, Charles Babbage2, Mary Somerville3, Grace Brewster Hopper4, Alan Turing5 and Emmy Noether6', 100, 200)],
    [seg('Keywords: Document Parsing · Table Structure · Page Layout · Dense Retrieval · Open Source Benchmarks', 100, 300)],
    [seg('Ref. 12-B (rev. 4)', 100, 400)],
  ]), {});
  const type = (start: string) => els.find((e) => e.text.startsWith(start))?.type;
  assert.equal(type('Ada Lovelace1'), 'NarrativeText');
  assert.equal(type('Keywords:'), 'NarrativeText');
  assert.equal(type('Ref. 12-B'), 'UncategorizedText');
});

test('a line alone over a line set further in that would have fit after it starts a new block; a full first line of a hanging item does not', () => {
  // a manual page: a heading at the margin, an option indented under it, its description further in
  const els = layoutPage(page([
    [seg('Some body text that is long enough to be the body of the page and more.', 100, 100)],
    [seg('OPTIONS', 100, 200)],
    [seg('--verbose', 136, 211)],
    [seg('Print every request and reply in full.', 172, 222)],
    // a hanging list item: its first line is full, its second line set in under its text
    [seg('1. The first item of the list runs over the whole width of its', 100, 300)],
    [seg('column and goes on below.', 116, 311)],
  ]), {});
  assert.deepEqual(els.map((e) => e.text).slice(1, 4), ['OPTIONS', '--verbose', 'Print every request and reply in full.']);
  assert.equal(els.find((e) => e.text.startsWith('Print'))?.type, 'NarrativeText', 'a sentence closed by its full stop');
  assert.ok(els.some((e) => e.text.endsWith('width of its column and goes on below.')), JSON.stringify(els.map((e) => e.text)));
});

test('a definition list (terms at the margin, each definition set in under it, lines evenly spaced): each term and definition apart; an indented paragraph stays whole', () => {
  const els = layoutPage(page([
    [seg('Downpipe', 48, 100)],
    [seg('A vertical pipe carrying rain water from a gutter to the ground.', 78, 111.5)],
    [seg('Flashing', 48, 123)],
    [seg('A strip of metal sealing the joint between a roof and a wall.', 78, 134.5)],
    [seg('Ridge tile', 48, 146)],
    [seg('A curved tile covering the top edge of a roof.', 78, 157.5)],
    // a paragraph whose first line is indented, its last line closing with punctuation
    [seg('The survey covered the roofs of all four buildings this year, and it', 78, 200)],
    [seg('found them sound.', 48, 211.5)],
  ]), {});
  assert.deepEqual(els.map((e) => e.text), [
    'Downpipe', 'A vertical pipe carrying rain water from a gutter to the ground.',
    'Flashing', 'A strip of metal sealing the joint between a roof and a wall.',
    'Ridge tile', 'A curved tile covering the top edge of a roof.',
    'The survey covered the roofs of all four buildings this year, and it found them sound.',
  ]);
});

test('a numbered footnote, set smaller than the body, is text and not a heading', () => {
  // a LaTeX footnote: its mark a label before the text, 9 pt under 11 pt body text
  const body = 'Body text of the page that runs on long enough to set the body size of it.';
  const els = layoutPage(page([
    ...[100, 113, 126, 139].map((y) => [seg(body, 100, y, 11)]),
    [seg('1', 100, 700, 7), seg('Contractors receive the handbook with their agreement.', 106, 700, 9)],
    // a running head's abbreviation is no sentence end
    [seg('2 Z. Shen et al.', 100, 400, 9)],
  ]), {});
  assert.equal(els.find((e) => e.text.startsWith('1 Contractors'))?.type, 'NarrativeText', JSON.stringify(els.map((e) => [e.type, e.text])));
  assert.equal(els.find((e) => e.text.startsWith('2 Z.'))?.type, 'Title');
});

test('items lettered or numbered in Roman in parentheses are list items', () => {
  const body = 'Body text of the page that runs on long enough to set the body size of it.';
  const els = layoutPage(page([
    ...[100, 113, 126].map((y) => [seg(body, 100, y)]),
    [seg('(a) Use the restated figures where an office corrected an earlier quarter.', 120, 160)],
    [seg('(b) Leave out offices opened during the quarter.', 120, 175)],
    [seg('ii) Publish the table.', 120, 190)],
  ]), {});
  for (const t of ['(a) Use', '(b) Leave', 'ii) Publish']) assert.equal(els.find((e) => e.text.startsWith(t))?.type, 'ListItem', JSON.stringify(els.map((e) => [e.type, e.text])));
});

test('a heading in capitals over its first paragraph is a block of its own; a caption label on its own line opens a caption', () => {
  // IEEE style: a centred small-capitals heading right over an indented paragraph, a table's label
  // "TABLE I" over its caption line
  const els = layoutPage(page([
    [seg('I. INTRODUCTION', 120, 100)],
    [seg('Telemetry gauges report every few minutes whether or not it', 64, 112)],
    [seg('rains. During dry weeks these reports carry no information.', 54, 124)],
    [seg('TABLE I', 150, 200)],
    [seg('FIELD TRIAL RESULTS', 130, 210)],
  ]), {});
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`).slice(0, 3), [
    'Title: I. INTRODUCTION',
    'NarrativeText: Telemetry gauges report every few minutes whether or not it rains. During dry weeks these reports carry no information.',
    'FigureCaption: TABLE I FIELD TRIAL RESULTS',
  ]);
});

test("a paragraph's last line alone at a column's top, then an indented line, is the end of that paragraph", () => {
  const els = layoutPage(page([
    [seg('negative passages for each question.', 72, 65)],
    [seg('The trick of in-batch negatives has been used in the full batch', 83, 79)],
    [seg('setting and more recently for mini-batch training of models.', 72, 92)],
    // a reference's first line set on to the margin, its next line hanging: one reference
    [seg('Omar Khattab and Matei Zaharia. 2020. ColBERT: Efficient and', 72, 200)],
    [seg('effective passage search over BERT. In SIGIR.', 83, 213)],
  ]), {});
  assert.deepEqual(els.map((e) => e.text), [
    'negative passages for each question.',
    'The trick of in-batch negatives has been used in the full batch setting and more recently for mini-batch training of models.',
    'Omar Khattab and Matei Zaharia. 2020. ColBERT: Efficient and effective passage search over BERT. In SIGIR.',
  ]);
});

test('a heading set larger than the text under it is a block of its own; a bullet glyph larger than its item is not', () => {
  const els = layoutPage(page([
    [seg('1.1 Contributions', 72, 100, 10.9)],
    [seg('We make three contributions. First, a fault detector that compares', 72, 113, 9)],
    [seg('each gauge with its neighbours.', 72, 124, 9)],
    // a list item whose bullet is set in a larger font than its words
    [{ ...seg('Several tests are used to', 72, 200, 9), words: [{ ...seg('\u2022', 72, 200, 10.5).words[0]!, size: 10.5 }, ...seg('Several tests are used to', 80, 200, 9).words], size: 10.5, text: '\u2022 Several tests are used to' }],
    [seg('diagnose breast cancer.', 80, 211, 9)],
  ]), {});
  assert.deepEqual(els.map((e) => e.text), [
    '1.1 Contributions',
    'We make three contributions. First, a fault detector that compares each gauge with its neighbours.',
    'Several tests are used to diagnose breast cancer.',
  ], JSON.stringify(els.map((e) => [e.type, e.text])));
});

test('a short sentence in the body\'s weight and size, closed by a full stop after a word, is text; a heading and an author line stay titles', () => {
  const body = (t: string, y: number) => [seg(t, 72, y)];
  const els = layoutPage(page([
    body('The survey team counts the birds on every pond of the valley twice a year and writes down what it saw.', 100),
    body('Pond survey', 130),
    body('The first definition.', 150),
    body('J. Smith et al.', 170),
    body('Each pond is counted from the same place on its bank, at the same hour of the morning.', 190),
  ]), {});
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'The survey team counts the birds on every pond of the valley twice a year and writes down what it saw.'],
    ['Title', 'Pond survey'],
    ['NarrativeText', 'The first definition.'],
    ['Title', 'J. Smith et al.'],
    ['NarrativeText', 'Each pond is counted from the same place on its bank, at the same hour of the morning.'],
  ], JSON.stringify(els.map((e) => [e.type, e.text])));
});
