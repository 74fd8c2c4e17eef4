// Text-based partitioners (txt, html, md, rst, org, xml, json, csv/tsv, rtf, eml, msg) on generated inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { BadRequest, UnprocessableDocument } from '../../../../lambdas/errors';
import { FORMAT_PARTITIONERS } from '../../../../lambdas/engine/partition/formats/index';
import { msgRtfBodyElements } from '../../../../lambdas/engine/partition/formats/email';
import { context, corpusDoc, partition, partitionWithHierarchy, types } from './helpers';

test('txt: paragraphs, bullet groups, address; cp1252 fallback and explicit encoding', async () => {
  const els = await partition('txt', 'Quarterly Report\n\nThe company grew its revenue\nby ten percent this year.\n\n* apples\n* pears\n\nDoylestown, PA 18901\n');
  assert.deepEqual(types(els), ['Title', 'NarrativeText', 'ListItem', 'ListItem', 'Address']);
  assert.equal(els[1]!.text, 'The company grew its revenue by ten percent this year.');
  assert.equal(els[2]!.text, 'apples');
  const cp = iconv.encode('Caf\u00e9 cr\u00e8me \u20ac5 is what she ordered yesterday.', 'cp1252');
  assert.equal((await partition('txt', new Uint8Array(cp)))[0]!.text, 'Caf\u00e9 cr\u00e8me \u20ac5 is what she ordered yesterday.');
  // the default utf-8 does not garble non-UTF-8 content
  assert.equal((await partition('txt', new Uint8Array(cp), { encoding: 'utf-8' }))[0]!.text, 'Caf\u00e9 cr\u00e8me \u20ac5 is what she ordered yesterday.');
  const latin = iconv.encode('\u00c5ngstr\u00f6m', 'latin1');
  assert.equal((await partition('txt', new Uint8Array(latin), { encoding: 'latin1' }))[0]!.text, '\u00c5ngstr\u00f6m');
  await assert.rejects(partition('txt', 'x', { encoding: 'no-such-encoding' }), BadRequest);
});

test('html: headings hierarchy, nested lists, tables, links, emphasis, dropped chrome', async () => {
  const html = `<html><head><title>T</title><style>p{}</style></head><body><nav>Home | About</nav>
    <h1>Annual Report</h1><p>The board <b>approved</b> the plan and <a href="https://x.test/a">published it</a> today.</p>
    <h2>Risks</h2><ul><li>&bull; Market risk<ul><li>Rates</li></ul></li><li>Credit risk</li></ul>
    <table><tr><th>Year</th><th>Revenue</th></tr><tr><td>2023</td><td>1,000</td></tr></table>
    <pre>
const x = 1;
</pre><script>alert(1)</script><p>jane@example.com</p></body></html>`;
  const els = await partitionWithHierarchy('html', html);
  assert.deepEqual(types(els), ['Title', 'NarrativeText', 'Title', 'ListItem', 'ListItem', 'ListItem', 'Table', 'CodeSnippet', 'EmailAddress']);
  const [h1, para, h2, li1, li2, li3, table, code] = els;
  assert.equal(h1!.metadata.category_depth, 0);
  assert.equal(h2!.metadata.parent_id, h1!.element_id);
  assert.equal(para!.metadata.parent_id, h1!.element_id);
  assert.deepEqual(para!.metadata.link_urls, ['https://x.test/a']);
  assert.deepEqual(para!.metadata.link_texts, ['published it']);
  const start = para!.metadata.link_start_indexes![0]!;
  assert.equal(para!.text.slice(start, start + 'published it'.length), 'published it');
  assert.deepEqual(para!.metadata.emphasized_text_contents, ['approved']);
  assert.deepEqual(para!.metadata.emphasized_text_tags, ['b']);
  assert.equal(li1!.text, 'Market risk');
  assert.equal(li2!.text, 'Rates');
  // list depth counts the lists around an item, as the library's HTML partitioner does
  assert.equal(li1!.metadata.category_depth, 1);
  assert.equal(li1!.metadata.parent_id, h2!.element_id);
  assert.equal(li2!.metadata.category_depth, 2);
  assert.equal(li2!.metadata.parent_id, li1!.element_id);
  assert.equal(li3!.metadata.category_depth, 1);
  assert.equal(li3!.metadata.parent_id, h2!.element_id);
  assert.equal(table!.metadata.parent_id, h2!.element_id);
  assert.equal(table!.text, 'Year Revenue 2023 1,000');
  assert.equal(table!.metadata.text_as_html, '<table><tr><td>Year</td><td>Revenue</td></tr><tr><td>2023</td><td>1,000</td></tr></table>');
  assert.equal(code!.text, 'const x = 1;');
  const spanned = await partition('html', '<table><tr><td colspan="2">Wide heading cell</td></tr><tr><td>a</td><td>b</td></tr></table>');
  assert.equal(spanned[0]!.metadata.text_as_html, '<table><tr><td colspan="2">Wide heading cell</td></tr><tr><td>a</td><td>b</td></tr></table>');
  assert.ok(!els.some((e) => /Home|alert/.test(e.text)));
});

test('html: a footnote\'s link back to its citation is navigation, not the note\'s text (pandoc, Python-Markdown, MediaWiki)', async () => {
  const html = '<p>Counting starts at dawn.<a href="#r1" class="footnote-ref" role="doc-noteref"><sup>1</sup></a></p>' +
    '<section role="doc-endnotes"><ol><li id="fn1"><p>Before sunrise, in fact.<a href="#fnref1" class="footnote-back" role="doc-backlink">\u21a9\ufe0e</a></p></li>' +
    '<li id="fn2"><p>Weather allowing. <a class="footnote-backref" href="#fnref2">\u21a9</a></p></li>' +
    '<li id="fn3"><span class="mw-cite-backlink"><a href="#c3">^</a></span> <span>Survey manual, chapter 2.</span></li></ol></section>';
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => e.text), ['Counting starts at dawn.1', 'Before sunrise, in fact.', 'Weather allowing.', 'Survey manual, chapter 2.']);
});

test('html: MathML as LaTeX, inline between $, a display formula a Formula; a TeX annotation taken as written, its fallback picture dropped', async () => {
  const html = '<h1>Physics</h1><p>The energy is <math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math> at rest.</p>' +
    '<math display="block"><munderover><mo>\u2211</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mfrac><mi>a</mi><msqrt><mi>b</mi></msqrt></mfrac></math>' +
    '<p>Squared: <span><math alttext="{\\displaystyle x^{2}}"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">{\\displaystyle x^{2}}</annotation></semantics></math>' +
    '<img src="x.svg" alt="{\\displaystyle x^{2}}"></span> here.</p>';
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Physics'],
    ['NarrativeText', 'The energy is $E=mc^{2}$ at rest.'],
    ['Formula', '\\sum_{i=1}^{n}\\frac{a}{\\sqrt{b}}'],
    ['NarrativeText', 'Squared: $x^{2}$ here.'],
  ]);
  // in a table's cell too (a cell's text is read apart from the paragraphs)
  const [table] = await partition('html', '<table><tr><th>Law</th><th>Formula</th></tr><tr><td>Energy</td><td><math><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math></td></tr></table>');
  assert.equal(table!.text, 'Law Formula Energy $E=mc^{2}$');
  assert.match(table!.metadata.text_as_html!, /<td>\$E=mc\^\{2\}\$<\/td>/);
});

test('html: encoding from the option, from <meta charset>, and cp1252 corpus file', async () => {
  const bytes = new Uint8Array(iconv.encode('<meta charset="windows-1252"><p>Sch\u00f6ne Gr\u00fc\u00dfe an alle, die heute hier sind.</p>', 'cp1252'));
  assert.match((await partition('html', bytes))[0]!.text, /Sch\u00f6ne Gr\u00fc\u00dfe/);
  const els = await partition('html', corpusDoc('fake-html-cp1252.html'), { encoding: 'cp1252' });
  assert.ok(els.some((e) => e.type === 'CodeSnippet' && e.text.includes('15,50 \u20ac')));
});

test('example-10k.html (2.4 MB) partitions with tables', async () => {
  const els = await partition('html', corpusDoc('example-10k.html'));
  assert.ok(els.length > 300);
  assert.ok(els.filter((e) => e.type === 'Table').length > 50);
});

test('rst: text inside directives is kept (a table with its caption, notes, csv and list tables), definition lists, "::" alone', async () => {
  // pandoc writes a captioned table as a table directive; its body was skipped as an unknown directive
  const src = [
    'Fault codes', '-----------', '', '.. table:: Logger fault codes', '', '   ==== ========', '   Code Severity', '   ==== ========',
    '   E01  High', '   E02  Low', '   ==== ========', '', '.. note::', '', '   Check the battery before you leave.', '',
    '.. csv-table:: Visits', '   :header-rows: 1', '', '   Site, Crew', '   "0412, north", Mbeki', '',
    '.. list-table::', '', '   * - Term', '     - Meaning', '   * - Drift', '     - Change over time', '',
    'Gauge', '   A device that measures rain.', '', '::', '', '   logger-cli export', '',
    '.. contents::', '', '.. a comment that is not text', '',
  ].join('\n');
  const els = await partition('rst', src);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'Title: Fault codes',
    'UncategorizedText: Logger fault codes',
    'Table: Code Severity E01 High E02 Low',
    'NarrativeText: Check the battery before you leave.',
    'UncategorizedText: Visits',
    'Table: Site Crew 0412, north Mbeki',
    'Table: Term Meaning Drift Change over time',
    'UncategorizedText: Gauge',
    'NarrativeText: A device that measures rain.',
    'CodeSnippet: logger-cli export',
  ]);
});

test('org: drawers and planning lines are no text, a nested item is an item of its own, a caption is kept', async () => {
  const src = [
    '* Before you leave', '  SCHEDULED: <2026-12-07 Mon>', '  :PROPERTIES:', '  :CUSTOM_ID: before-you-leave', '  :END:',
    '1. Charge the field laptop.', '2. Pack the calibration flask.', '   - Check the flask for cracks.', '3. Download the site list.',
    '| Code | Severity |', '|------+----------|', '| E01  | High     |', '#+caption: Logger fault codes',
  ].join('\n');
  const els = await partition('org', src);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'Title: Before you leave',
    'ListItem: Charge the field laptop.',
    'ListItem: Pack the calibration flask.',
    'ListItem: Check the flask for cracks.',
    'ListItem: Download the site list.',
    'Table: Code Severity E01 High',
    'UncategorizedText: Logger fault codes',
  ]);
});

test('md, rst, org: headings, lists, code blocks', async () => {
  const md = await partition('md', '# Guide\n\nSome text explains how the tool works.\n\n- one\n- two\n\n```bash\nnpm test\n```\n\n[docs](https://d.test)\n');
  assert.deepEqual(types(md), ['Title', 'NarrativeText', 'ListItem', 'ListItem', 'CodeSnippet', 'UncategorizedText']);
  assert.equal(md[4]!.text, 'npm test');
  assert.deepEqual(md[5]!.metadata.link_urls, ['https://d.test']);
  const rst = await partition('rst', 'Guide\n=====\n\nSome text explains how the tool works.\n\nPart\n----\n\n- one\n- two\n\n.. code:: bash\n\n   npm test\n');
  assert.deepEqual(types(rst), ['Title', 'NarrativeText', 'Title', 'ListItem', 'ListItem', 'CodeSnippet']);
  assert.equal(rst[2]!.metadata.category_depth, 1);
  const rstTables = await partition('rst', '+------+-------+\n| a    | b     |\n+======+=======+\n| 1    | two   |\n| more | lines |\n+------+-------+\n\n=====  =====\nx      y\n=====  =====\n3      4\n=====  =====\n');
  assert.deepEqual(rstTables.map((e) => e.metadata.text_as_html), [
    '<table><tr><td>a</td><td>b</td></tr><tr><td>1 more</td><td>two lines</td></tr></table>',
    '<table><tr><td>x</td><td>y</td></tr><tr><td>3</td><td>4</td></tr></table>',
  ]);
  const org = await partition('org', '* Guide\nSome text explains how the tool works.\n** Part\n- one\n- two\n#+BEGIN_SRC sh\nnpm test\n#+END_SRC\n| a | b |\n|---+---|\n| 1 | 2 |\n');
  assert.deepEqual(types(org), ['Title', 'NarrativeText', 'Title', 'ListItem', 'ListItem', 'CodeSnippet', 'Table']);
  assert.equal(org[6]!.text, 'a b 1 2');
});

test('rst: a list nested under an item (after a blank line, set in to its text) nests; an item\'s second paragraph is part of its item', async () => {
  const src = 'Checklist\n=========\n\n-  Lock every door.\n\n   -  Check the fire exits.\n   -  Set the alarm.\n\n-  Switch off the lights.\n\n   Even in the cellar.\n\n#. First step\n#. Second step\n';
  const els = await partitionWithHierarchy('rst', src);
  const byText = new Map(els.map((e) => [e.element_id, e.text]));
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth, byText.get(e.metadata.parent_id ?? '')]), [
    ['Title', 'Checklist', 0, undefined],
    ['ListItem', 'Lock every door.', 1, 'Checklist'],
    ['ListItem', 'Check the fire exits.', 2, 'Lock every door.'],
    ['ListItem', 'Set the alarm.', 2, 'Lock every door.'],
    ['ListItem', 'Switch off the lights. Even in the cellar.', 1, 'Checklist'],
    ['ListItem', 'First step', 1, 'Checklist'],
    ['ListItem', 'Second step', 1, 'Checklist'],
  ]);
});

test('org: a list set in under an item nests in it (its items a level deeper, their parent the item), a list of another kind at the same indent is a list of its own', async () => {
  const src = '* Checklist\n1. Lock every door.\n   - Check the fire exits.\n     + Test the push bar.\n   - Set the alarm.\n2. Switch off the lights.\n- Leave the keys.\n';
  const els = await partitionWithHierarchy('org', src);
  const byText = new Map(els.map((e) => [e.element_id, e.text]));
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth, byText.get(e.metadata.parent_id ?? '')]), [
    ['Title', 'Checklist', 0, undefined],
    ['ListItem', 'Lock every door.', 1, 'Checklist'],
    ['ListItem', 'Check the fire exits.', 2, 'Lock every door.'],
    ['ListItem', 'Test the push bar.', 3, 'Check the fire exits.'],
    ['ListItem', 'Set the alarm.', 2, 'Lock every door.'],
    ['ListItem', 'Switch off the lights.', 1, 'Checklist'],
    ['ListItem', 'Leave the keys.', 1, 'Checklist'],
  ]);
});

test('rst: a block quote after an empty comment is read; footnotes and citations come after the text, their references out of it', async () => {
  const src = [
    'Field notes', '===========', '',
    'Ducks were counted at dawn. [1]_ The weather held [#wind]_ all week.', '',
    '..', '',
    '   The lake froze in the second week of January.', '',
    '.. this is a comment', '   and its second line', '',
    'See ``a[1]_`` in the code and the survey [CIT2002]_.', '',
    '.. [1] Counts were made by two observers', '   walking the shore.', '',
    '.. [#wind]', '   A north wind of 20 km/h.', '',
    '.. [CIT2002] The regional survey of 2002.', '',
  ].join('\n');
  const els = await partition('rst', src);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Field notes'],
    ['NarrativeText', 'Ducks were counted at dawn. The weather held all week.'],
    ['NarrativeText', 'The lake froze in the second week of January.'],
    ['NarrativeText', 'See a[1]_ in the code and the survey.'],
    ['ListItem', 'Counts were made by two observers walking the shore.'],
    ['ListItem', 'A north wind of 20 km/h.'],
    ['ListItem', 'The regional survey of 2002.'],
  ]);
});

test('xml: leaf texts, or the raw document with xmlKeepTags', async () => {
  const xml = '<?xml version="1.0"?><catalog><book><title>Dune</title><note>The spice must flow across the desert.</note></book></catalog>';
  const els = await partition('xml', xml);
  assert.deepEqual(els.map((e) => e.text), ['Dune', 'The spice must flow across the desert.']);
  const kept = await partition('xml', xml, { xmlKeepTags: true });
  assert.equal(kept.length, 1);
  assert.equal(kept[0]!.text, xml);
  await assert.rejects(partition('xml', 'just some words'), UnprocessableDocument);
});

test('json: element JSON round trip keeps types, text, metadata and parent links; others are 400', async () => {
  const input = [
    { type: 'Title', element_id: 'a', text: 'Heading', metadata: { filename: 'x.html', page_number: 2 } },
    { type: 'NarrativeText', element_id: 'b', text: 'Body text.', metadata: { parent_id: 'a', link_urls: ['u'] } },
  ];
  const els = await partition('json', JSON.stringify(input));
  assert.deepEqual(types(els), ['Title', 'NarrativeText']);
  assert.equal(els[0]!.metadata.page_number, 2);
  assert.equal(els[0]!.metadata.filename, undefined);
  assert.equal(els[1]!.metadata.parent_id, els[0]!.element_id);
  assert.deepEqual(els[1]!.metadata.link_urls, ['u']);
  const corpus = await partition('json', corpusDoc('spring-weather.html.json'));
  assert.equal(corpus.length, 35);
  for (const bad of ['{"type":"Title"}', '[{"type":"Nope","text":"x"}]', '[{"type":"Title"}]', 'not json', '[{"type":"Title","text":"x","metadata":[]}]']) {
    await assert.rejects(partition('json', bad), BadRequest, bad);
  }
});

test('csv/tsv: delimiter sniffing, quotes, one table', async () => {
  const semi = await partition('csv', corpusDoc('semicolon-delimited.csv'));
  assert.equal(semi.length, 1);
  assert.match(semi[0]!.metadata.text_as_html!, /^<table><tr><td>Lorem, ipsum<\/td><td>dolor sit<\/td><td>amet<\/td><\/tr>/);
  const quoted = await partition('csv', 'name,quote\n"Smith, J","said ""hi"""\n');
  assert.equal(quoted[0]!.text, 'name quote Smith, J said "hi"');
  const tsv = await partition('tsv', 'a\tb\n1\t2\n');
  assert.equal(tsv[0]!.metadata.text_as_html, '<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>');
});

test('rtf: merged table cells span the rows\' columns (a wider cell spans the edges it covers; \\clvmgf/\\clvmrg rows, \\clmgf/\\clmrg columns)', async () => {
  const cells = (texts: string[]) => texts.map((t) => `\\pard\\intbl ${t}\\cell`).join(' ');
  const rtf = [
    '{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}',
    // a label over two rows, a header over two columns as one wider cell, one as \\clmgf + \\clmrg
    `\\trowd\\clvmgf\\cellx900\\cellx2900\\clmgf\\cellx3900\\clmrg\\cellx4900 ${cells(['Pond', 'Spring', 'Autumn', ''])}\\row`,
    `\\trowd\\clvmrg\\cellx900\\cellx1900\\cellx2900\\cellx3900\\cellx4900 ${cells(['', 'Ducks', 'Grebes', 'Ducks', 'Grebes'])}\\row`,
    // rows written with edges a few twips off are the same columns
    `\\trowd\\cellx900\\cellx1905\\cellx2900\\cellx3896\\cellx4900 ${cells(['North', '12', '2', '15', '1'])}\\row`,
    '{\\pard After the table.\\par}',
    '}',
  ].join('\n');
  const els = await partition('rtf', rtf);
  const table = els.find((e) => e.type === 'Table');
  assert.equal(table?.metadata.text_as_html, '<table><tr><td rowspan="2">Pond</td><td colspan="2">Spring</td><td colspan="2">Autumn</td></tr>'
    + '<tr><td>Ducks</td><td>Grebes</td><td>Ducks</td><td>Grebes</td></tr><tr><td>North</td><td>12</td><td>2</td><td>15</td><td>1</td></tr></table>');
  assert.equal(table?.text, 'Pond Spring Autumn Ducks Grebes Ducks Grebes North 12 2 15 1');
});

test('rtf: list paragraphs are list items (a Word list with its label in \\listtext, a label set before a tab)', async () => {
  const rtf = [
    '{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}',
    '{\\pard Pack the kit before you leave the depot.\\par}',
    '{\\pard\\li360\\fi-360 1.\\tab Charge the field laptop.\\par}',
    '{\\pard\\li360\\fi-360 2.\\tab Download the site list.\\par}',
    '{\\pard\\ls1\\ilvl0{\\listtext \\u8226 ?\\tab}Check the flask for cracks.\\par}',
    '{\\pard 2024 was a good year for the network.\\par}',
    '}',
  ].join('\n');
  const els = await partition('rtf', rtf);
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'NarrativeText: Pack the kit before you leave the depot.',
    'ListItem: 1. Charge the field laptop.',
    'ListItem: 2. Download the site list.',
    'ListItem: Check the flask for cracks.',
    'NarrativeText: 2024 was a good year for the network.',
  ]);
});

test('rtf: nested list items take their level from Word\'s \\ilvl, or from their indent among the list\'s items', async () => {
  const rtf = [
    '{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}',
    '{\\pard\\li360\\fi-360 \\bullet\\tab Lock every door.\\par}',
    '{\\pard\\li720\\fi-360 \\endash\\tab Check the fire exits.\\par}',
    '{\\pard\\li360\\fi-360 \\bullet\\tab Switch off the lights.\\par}',
    '{\\pard Then, in the office:\\par}',
    '{\\pard\\ls1\\ilvl0{\\listtext \\u8226 ?\\tab}Empty the bins.\\par}',
    '{\\pard\\ls1\\ilvl1{\\listtext o\\tab}Including the shredder.\\par}',
    '}',
  ].join('\n');
  const els = await partitionWithHierarchy('rtf', rtf);
  const byId = new Map(els.map((e) => [e.element_id, e.text]));
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => [e.text, e.metadata.category_depth, byId.get(e.metadata.parent_id ?? '')]), [
    ['Lock every door.', 1, undefined],
    ['Check the fire exits.', 2, 'Lock every door.'],
    ['Switch off the lights.', 1, undefined],
    ['Empty the bins.', 1, 'Then, in the office:'],
    ['Including the shredder.', 2, 'Empty the bins.'],
  ]);
});

test('rtf: a paragraph in a heading style is a heading of its level (the style names it or gives its outline level)', async () => {
  const rtf = [
    '{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}',
    '{\\stylesheet{\\s0\\snext0 Normal;}{\\s1\\sbasedon0\\snext0\\b\\fs32 Heading 1;}{\\s2\\sbasedon0\\snext0\\b\\fs28 heading 2;}',
    '{\\s7\\sbasedon0\\outlinelevel2\\b Sub-sub section;}{\\s9\\sbasedon0 Heading;}}',
    '{\\pard\\plain\\s1\\b\\fs32 Methods\\par}',
    '{\\pard\\plain\\s0 The samples were taken from the river every week.\\par}',
    '{\\pard\\plain\\s2\\b\\fs28 Sampling\\par}',
    '{\\pard\\plain\\s7\\b Bottles\\par}',
    '{\\pard\\plain\\s9 Not numbered by level\\par}',
    '}',
  ].join('\n');
  const els = await partitionWithHierarchy('rtf', rtf);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['Title', 'Methods', 0],
    ['NarrativeText', 'The samples were taken from the river every week.', undefined],
    ['Title', 'Sampling', 1],
    ['Title', 'Bottles', 2],
    ['Title', 'Not numbered by level', 0],
  ]);
});

test('rtf: paragraphs, headings, escapes, tables', async () => {
  const rtf = '{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}{\\*\\generator x;}\n{\\pard\\outlinelevel0\\b Big Title\\par}\n{\\pard Caf\\\'e9 na\\u239?ve text was written by the author here.\\par}\n{\\trowd\\cellx1000\\cellx2000\\pard\\intbl a\\cell b\\cell\\row}\n}';
  const els = await partition('rtf', rtf);
  assert.deepEqual(types(els), ['Title', 'NarrativeText', 'Table']);
  assert.equal(els[1]!.text, 'Caf\u00e9 na\u00efve text was written by the author here.');
  assert.equal(els[2]!.metadata.text_as_html, '<table><tr><td>a</td><td>b</td></tr></table>');
  await assert.rejects(partition('rtf', 'hello'), UnprocessableDocument);
});

test('eml: header metadata on body elements, html preferred, attachments through partitionNested', async () => {
  const eml = [
    'From: "Ann Example" <ann@example.com>', 'To: bob@example.com, carl@example.com', 'Cc: dee@example.com',
    'Subject: Status update', 'Message-ID: <abc123@example.com>', 'Date: Tue, 1 Oct 2024 10:00:00 +0000',
    'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="B"', '', '--B',
    'Content-Type: multipart/alternative; boundary="A"', '', '--A', 'Content-Type: text/plain', '', 'Plain body that should be ignored.',
    '--A', 'Content-Type: text/html', '', '<p>The project was delivered on time and under budget.</p>', '--A--',
    '--B', 'Content-Type: text/plain; name="notes.txt"', 'Content-Disposition: attachment; filename="notes.txt"',
    'Content-Transfer-Encoding: base64', '', Buffer.from('attached notes').toString('base64'), '--B--', '',
  ].join('\r\n');
  const p = FORMAT_PARTITIONERS.eml!;
  const ctx = context('eml', { processAttachments: true }, 'mail.eml');
  const els = await p(new TextEncoder().encode(eml), ctx);
  assert.equal(els[0]!.text, 'The project was delivered on time and under budget.');
  assert.deepEqual(els[0]!.metadata.sent_from, ['Ann Example <ann@example.com>']);
  assert.deepEqual(els[0]!.metadata.sent_to, ['bob@example.com', 'carl@example.com']);
  assert.deepEqual(els[0]!.metadata.cc_recipient, ['dee@example.com']);
  assert.equal(els[0]!.metadata.subject, 'Status update');
  assert.equal(els[0]!.metadata.email_message_id, 'abc123@example.com');
  assert.equal(ctx.nested.length, 1);
  assert.equal(ctx.nested[0]!.filename, 'notes.txt');
  assert.equal(Buffer.from(ctx.nested[0]!.data).toString(), 'attached notes');
  assert.equal(els[els.length - 1]!.metadata.attached_to_filename, 'mail.eml');
  const without = await p(new TextEncoder().encode(eml), context('eml'));
  assert.ok(!without.some((e) => e.metadata.attached_to_filename));
  await assert.rejects(p(new Uint8Array([0, 1, 2, 3]), context('eml')), UnprocessableDocument);
});

test('msg: Outlook fields and attachments', async () => {
  const p = FORMAT_PARTITIONERS.msg!;
  const els = await partition('msg', corpusDoc('fake-email.msg'));
  assert.deepEqual(types(els), ['NarrativeText', 'Title', 'ListItem', 'ListItem']);
  assert.deepEqual(els[0]!.metadata.sent_to, ['mrobinson@unstructured.io']);
  assert.equal(els[0]!.metadata.subject, 'Test Email');
  const ctx = context('msg', { processAttachments: true }, 'att.msg');
  const withAtt = await p(corpusDoc('fake-email-attachment.msg'), ctx);
  assert.equal(ctx.nested[0]!.filename, 'fake-attachment.txt');
  assert.equal(withAtt[withAtt.length - 1]!.metadata.attached_to_filename, 'att.msg');
  await assert.rejects(partition('msg', 'not a msg file at all'), UnprocessableDocument);
});

test('msg: a compressed-RTF-only body is decompressed and read', async () => {
  const { default: MsgReader } = await import('@kenjiuno/msgreader');
  const info = new MsgReader(corpusDoc('fake-email.msg').buffer as ArrayBuffer).getFileData() as { compressedRtf?: Uint8Array };
  const els = msgRtfBodyElements(info.compressedRtf!, { warn: () => {} });
  assert.ok(els.some((e) => e.text === 'This is a test email to use for unit tests.'));
  assert.ok(els.some((e) => e.type === 'ListItem' && e.text === 'Roses are red'));
});

test('html: pathological nesting is read as plain text with a warning, quickly', async () => {
  const deep = `<html><body>${'<div>'.repeat(50_000)}Deeply nested <b>words</b> &amp; more${'</div>'.repeat(50_000)}</body></html>`;
  const ctx = context('html');
  const els = await FORMAT_PARTITIONERS.html!(new TextEncoder().encode(deep), ctx);
  assert.deepEqual(els.map((e) => e.text), ['Deeply nested words & more']);
  assert.match(ctx.warnings[0]!, /plain text/);
});
