// OpenDocument presentations (.odp), built in the test as LibreOffice Impress writes them: slides in
// order, shapes read by position (not document order, in groups too), titles and subtitles, outline
// lists with nested levels and bullets turned off by a list style, text boxes, a table with merged
// cells, a chart object, a group, speaker notes and a review comment; then damaged and hostile
// documents, always a 4xx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { context, partition, partitionWithHierarchy } from './helpers';
import { odfChart } from '../../../support/charts';
import { FORMAT_PARTITIONERS } from '../../../../lambdas/engine/partition/formats/index';
import { partitionDocument } from '../../../../lambdas/engine/partition/pipeline';
import { DomainError, UnprocessableDocument } from '../../../../lambdas/errors';

const MIME = 'application/vnd.oasis.opendocument.presentation';
const NS = [
  'office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"', 'style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"', 'table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"', 'fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xlink="http://www.w3.org/1999/xlink"', 'dc="http://purl.org/dc/elements/1.1/"', 'meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"',
  'presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"', 'svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'officeooo="http://openoffice.org/2009/office"',
].map((n) => `xmlns:${n}`).join(' ');

interface Deck {
  pages: string;
  /** content.xml's office:automatic-styles. */
  automatic?: string;
  /** styles.xml's office:styles. */
  common?: string;
  /** Other members (embedded objects). */
  parts?: Record<string, string>;
}

function odp(deck: Deck): Uint8Array {
  const parts = Object.fromEntries(Object.entries(deck.parts ?? {}).map(([k, v]) => [k, strToU8(v)]));
  return zipSync({
    mimetype: [strToU8(MIME), { level: 0 }],
    'content.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles>${deck.automatic ?? ''}</office:automatic-styles><office:body><office:presentation>${deck.pages}</office:presentation></office:body></office:document-content>`),
    'styles.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}><office:styles>${deck.common ?? ''}</office:styles></office:document-styles>`),
    'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'),
    ...parts,
  });
}

const at = (x: string, y: string): string => `svg:x="${x}" svg:y="${y}" svg:width="10cm" svg:height="2cm"`;
const p = (t: string): string => `<text:p>${t}</text:p>`;
const frame = (cls: string, x: string, y: string, body: string): string =>
  `<draw:frame presentation:class="${cls}" ${at(x, y)}><draw:text-box>${body}</draw:text-box></draw:frame>`;
const textBox = (x: string, y: string, body: string): string => `<draw:custom-shape ${at(x, y)}>${body}<draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape>`;
const notes = (body: string): string =>
  `<presentation:notes><draw:page-thumbnail presentation:class="page" ${at('1cm', '1cm')}/>${frame('notes', '2cm', '14cm', body)}</presentation:notes>`;
const page = (name: string, shapes: string): string => `<draw:page draw:name="${name}">${shapes}</draw:page>`;
const item = (body: string): string => `<text:list-item>${body}</text:list-item>`;

const bullets = (name: string): string =>
  `<text:list-style style:name="${name}"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/><text:list-level-style-bullet text:level="2" text:bullet-char="–"/></text:list-style>`;
const AUTOMATIC = bullets('L1')
  + '<text:list-style style:name="LNum"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."/></text:list-style>'
  + '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>'
  + '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>';
// a common list style (styles.xml) whose first level shows nothing, as LibreOffice writes "no bullet"
const COMMON = '<text:list-style style:name="NoBullet"><text:list-level-style-number text:level="1" style:num-format=""/></text:list-style>';

const TABLE = '<table:table><table:table-column table:number-columns-repeated="3"/>'
  + '<table:table-header-rows><table:table-row><table:table-cell><text:p>Station</text:p></table:table-cell>'
  + '<table:table-cell table:number-columns-spanned="2"><text:p>Nitrate</text:p></table:table-cell><table:covered-table-cell/></table:table-row></table:table-header-rows>'
  + '<table:table-row><table:table-cell table:number-rows-spanned="2"><text:p>North</text:p></table:table-cell><table:table-cell><text:p>2.4</text:p></table:table-cell><table:table-cell><text:p>3.1</text:p></table:table-cell></table:table-row>'
  + '<table:table-row><table:covered-table-cell/><table:table-cell><text:p>2.6</text:p></table:table-cell><table:table-cell><text:list text:style-name="L1">' + item(p('3.3')) + '</text:list></table:table-cell></table:table-row>'
  + '</table:table>';

/** Two slides whose shapes are written out of reading order. */
function deck(): Uint8Array {
  const outline = p('The plan has <text:span text:style-name="T1">three</text:span> parts, as <text:a xlink:href="https://example.com/plan">the <text:span text:style-name="T2">plan</text:span></text:a> says.')
    + '<text:list text:style-name="L1">'
    + item(p('Collect samples') + `<text:list>${item(p('Rinse bottles'))}${item(p('Label  bottles<text:s text:c="2"/>twice'))}</text:list>`)
    + item(p('Analyse results'))
    + `<text:list-header>${p('The follow-up work is planned for June.')}</text:list-header>`
    + '</text:list>'
    + `<text:list text:style-name="NoBullet">${item(p('This paragraph turns its bullet off.'))}</text:list>`
    + `<text:list text:style-name="LNum">${item(p('First numbered step'))}</text:list>`;
  const slide1 = page('Plan',
    frame('outline', '1cm', '2in', outline)
    + textBox('15cm', '12cm', p('The right box is read second.'))
    + textBox('20mm', '12cm', p('The left box is read first.'))
    + frame('subtitle', '1cm', '30mm', p('<text:line-break/>Spring campaign'))
    + frame('title', '1cm', '1cm', p('Field Report'))
    + frame('footer', '1cm', '18cm', p('Company confidential'))
    + notes(p('The speaker explains how the samples were taken.'))
    + '<officeooo:annotation svg:x="0cm" svg:y="0cm"><dc:creator>Ann Lee</dc:creator><dc:date>2024-03-01T09:30:00</dc:date><meta:creator-initials>AL</meta:creator-initials>'
    + p('Check the totals on this slide') + '</officeooo:annotation>');
  const slide2 = page('Results',
    `<draw:frame ${at('1cm', '6cm')}>${TABLE}<draw:image xlink:href="Pictures/TablePreview1.svm"/></draw:frame>`
    + `<draw:frame ${at('1cm', '12cm')}><draw:object xlink:href="./Object 1"/><draw:image xlink:href="./ObjectReplacements/Object 1"/></draw:frame>`
    + `<draw:frame ${at('14cm', '6cm')}><draw:image xlink:href="Pictures/photo.png"><text:p/></draw:image></draw:frame>`
    // a group stands where its topmost shape is (3cm) and reads its shapes by position too, not in document order
    + `<draw:g>${textBox('1cm', '4cm', p('The lower grouped note is read second.'))}<draw:g>${textBox('1cm', '3cm', p('The upper grouped note, nested deeper, is read first.'))}</draw:g></draw:g>`
    + `<draw:custom-shape draw:transform="rotate (0.2) translate (2cm 20cm)" svg:width="5cm" svg:height="1cm">${p('The rotated note comes last.')}</draw:custom-shape>`
    + frame('title', '1cm', '1cm', p('Results'))
    + notes(`<text:list>${item(p('The numbers are provisional until June.'))}</text:list>`));
  const chart = odfChart('Visitors',
    '<chart:axis chart:dimension="x"><chart:categories table:cell-range-address="local-table.$A$2:.$A$3"/></chart:axis>'
    + '<chart:series chart:values-cell-range-address="local-table.$B$2:.$B$3" chart:label-cell-address="local-table.$B$1"/>',
    [[null, 'Spring'], ['North', 12], ['South', 15]]);
  return odp({ pages: slide1 + slide2, automatic: AUTOMATIC, common: COMMON, parts: { 'Object 1/content.xml': chart } });
}

test('odp: slides in order, shapes by position, titles, nested list levels, text boxes, table, chart, group, notes and comments', async () => {
  const els = await partitionWithHierarchy('odp', deck());
  const row = (i: number) => [els[i]!.type, els[i]!.text, els[i]!.metadata.page_number, els[i]!.metadata.category_depth];
  assert.deepEqual(els.map((_, i) => row(i)), [
    ['Title', 'Field Report', 1, 0],
    ['Title', 'Spring campaign', 1, 1],
    ['NarrativeText', 'The plan has three parts, as the plan says.', 1, undefined],
    ['ListItem', 'Collect samples', 1, 0],
    ['ListItem', 'Rinse bottles', 1, 1],
    ['ListItem', 'Label bottles  twice', 1, 1],
    ['ListItem', 'Analyse results', 1, 0],
    ['NarrativeText', 'The follow-up work is planned for June.', 1, undefined],
    ['NarrativeText', 'This paragraph turns its bullet off.', 1, undefined],
    ['ListItem', 'First numbered step', 1, 0],
    ['NarrativeText', 'The left box is read first.', 1, undefined],
    ['NarrativeText', 'The right box is read second.', 1, undefined],
    ['NarrativeText', 'The speaker explains how the samples were taken.', 1, undefined],
    ['NarrativeText', '[author: Ann Lee (AL), time: 2024-03-01T09:30:00]: Check the totals on this slide', 1, undefined],
    ['Title', 'Results', 2, 0],
    ['NarrativeText', 'The upper grouped note, nested deeper, is read first.', 2, undefined],
    ['NarrativeText', 'The lower grouped note is read second.', 2, undefined],
    ['Table', 'Station Nitrate North 2.4 3.1 2.6 3.3', 2, undefined],
    ['NarrativeText', 'Visitors', 2, undefined],
    ['Table', 'Spring North 12 South 15', 2, undefined],
    ['NarrativeText', 'The rotated note comes last.', 2, undefined],
    ['NarrativeText', 'The numbers are provisional until June.', 2, undefined],
  ]);
  const id = (i: number) => els[i]!.element_id;
  // the subtitle is under the title, the outline under the subtitle, nested items under their item
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9].map((i) => els[i]!.metadata.parent_id), [id(0), id(1), id(1), id(3), id(3), id(1), id(1)]);
  assert.equal(els[0]!.metadata.parent_id, undefined);
  assert.deepEqual([15, 17, 19].map((i) => els[i]!.metadata.parent_id), [id(14), id(14), id(14)]);
  // runs' emphasis and links, as the PPTX partitioner gives them
  assert.deepEqual(els[2]!.metadata.emphasized_text_contents, ['three', 'plan']);
  assert.deepEqual(els[2]!.metadata.emphasized_text_tags, ['b', 'i']);
  assert.deepEqual(els[2]!.metadata.link_urls, ['https://example.com/plan']);
  assert.deepEqual(els[2]!.metadata.link_texts, ['the plan']);
  assert.equal(els[17]!.metadata.text_as_html,
    '<table><tr><td>Station</td><td colspan="2">Nitrate</td></tr><tr><td rowspan="2">North</td><td>2.4</td><td>3.1</td></tr><tr><td>2.6</td><td>3.3</td></tr></table>');
  assert.equal(els[19]!.metadata.text_as_html, '<table><tr><td></td><td>Spring</td></tr><tr><td>North</td><td>12</td></tr><tr><td>South</td><td>15</td></tr></table>');
});

test('odp: include_slide_notes=false leaves out the notes and the comments', async () => {
  const texts = (await partition('odp', deck(), { includeSlideNotes: false })).map((e) => e.text);
  assert.equal(texts.length, 19);
  assert.ok(!texts.some((t) => /speaker|provisional|Ann Lee/.test(t)));
});

test('odp through the pipeline: detected by its mimetype member, metadata.filetype is the ODF presentation type', async () => {
  const r = await partitionDocument({ data: deck(), filename: 'upload.bin' });
  assert.equal(r.filetype, 'odp');
  assert.ok(r.elements.every((e) => e.metadata.filetype === MIME && e.metadata.filename === 'upload.bin'));
  assert.equal(r.elements[0]!.text, 'Field Report');
});

async function refusal(data: Uint8Array): Promise<DomainError> {
  const err = await FORMAT_PARTITIONERS.odp!(data, context('odp')).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof DomainError, `a typed error, not ${String(err)}`);
  assert.ok(err.status >= 400 && err.status < 500, `a 4xx, not ${err.status}`);
  return err;
}

test('odp: a damaged document is a 4xx that says why', async () => {
  const good = deck();
  assert.ok((await refusal(good.subarray(0, good.length >> 1))) instanceof UnprocessableDocument);
  assert.match((await refusal(zipSync({ mimetype: strToU8(MIME), 'styles.xml': strToU8('<x/>') }))).message, /content\.xml is missing/);
  // an OpenDocument text's content, a presentation body that is not there, markup that is not XML
  const text = `<office:document-content ${NS}><office:body><office:text>${p('Not slides')}</office:text></office:body></office:document-content>`;
  for (const content of [text, '<office:document-content/>', '\u0000\u0001 not xml <<<']) {
    const err = await refusal(zipSync({ mimetype: strToU8(MIME), 'content.xml': strToU8(content) }));
    assert.ok(err instanceof UnprocessableDocument);
    assert.match(err.message, /^odp: content\.xml has no office:presentation body/);
  }
});

test('odp: hostile nesting and repeats stay bounded: deep groups and lists are read, beyond the XML caps a 4xx', async () => {
  const nested = (depth: number, inner: string): string => '<draw:g>'.repeat(depth) + inner + '</draw:g>'.repeat(depth);
  const deepList = (depth: number): string => '<text:list><text:list-item>'.repeat(depth) + p('Deep item') + '</text:list-item></text:list>'.repeat(depth);
  const slide = page('Deep', nested(400, textBox('1cm', '1cm', p('This shape sits in a deep group.'))) + frame('outline', '1cm', '5cm', deepList(200)));
  const els = await partition('odp', odp({ pages: slide }));
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [['NarrativeText', 'This shape sits in a deep group.', undefined], ['ListItem', 'Deep item', 199]]);
  const tooDeep = await refusal(odp({ pages: page('Deep', nested(5000, textBox('1cm', '1cm', p('x')))) }));
  assert.match(tooDeep.message, /nesting exceeds the limit/);
  // a table's repeat counts claim a billion rows and columns: read within the table caps
  const huge = '<table:table><table:table-row table:number-rows-repeated="1000000000"><table:table-cell table:number-columns-repeated="1000000000"><text:p>x</text:p></table:table-cell></table:table-row>'
    + '<table:table-row table:number-rows-repeated="1000000000"><table:table-cell table:number-columns-repeated="1000000000"/></table:table-row></table:table>';
  const started = Date.now();
  const table = await partition('odp', odp({ pages: page('Huge', `<draw:frame ${at('1cm', '1cm')}>${huge}</draw:frame>`) }));
  assert.ok(Date.now() - started < 10_000);
  assert.equal(table.length, 1);
  assert.equal((table[0]!.metadata.text_as_html!.match(/<tr>/g) ?? []).length, 1001);
  // a chart object that cannot be read is left out with a warning; the slide stands
  const ctx = context('odp');
  const broken = odp({ pages: page('Chart', frame('title', '1cm', '1cm', p('Still here')) + `<draw:frame ${at('1cm', '5cm')}><draw:object xlink:href="./Object 1"/></draw:frame>`), parts: { 'Object 1/content.xml': `<office:chart>${'<a>'.repeat(5000)}` } });
  assert.deepEqual((await FORMAT_PARTITIONERS.odp!(broken, ctx)).map((e) => e.text), ['Still here']);
  assert.match(ctx.warnings.join('\n'), /odp slide 1: the chart could not be read/);
});

test('odp: a formula object is a Formula in LaTeX', async () => {
  const math = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="StarMath 5.0">E = m c^2</annotation></semantics></math>';
  const data = odp({ pages: page('Energy', frame('title', '1cm', '1cm', p('Energy')) + `<draw:frame ${at('1cm', '5cm')}><draw:object xlink:href="./Object 1"/></draw:frame>`), parts: { 'Object 1/content.xml': math } });
  const els = await partition('odp', data);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [['Title', 'Energy'], ['Formula', 'E=mc^{2}']]);
});
