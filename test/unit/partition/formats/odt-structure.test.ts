// ODT structure: a table of contents' or other index's source (its title template, its entry
// templates) is no text of the document, only the index body is read; a list item's label is on its
// first paragraph only, so the paragraphs after it and a list header's are paragraphs; a picture's alt text,
// a label's formatted number and ruby reading aids are not text of the paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import { partition, partitionWithHierarchy } from './helpers';

const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';

function odt(body: string): Uint8Array {
  const content = `<office:document-content ${NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  return zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8(content) });
}

test('odt: a table of contents and an illustration index give their title once, from the index body', async () => {
  const toc = '<text:table-of-content text:name="TOC1"><text:table-of-content-source text:outline-level="2">' +
    '<text:index-title-template>Table of Contents</text:index-title-template>' +
    '<text:table-of-content-entry-template text:outline-level="1"><text:index-entry-text/><text:index-entry-page-number/></text:table-of-content-entry-template>' +
    '</text:table-of-content-source><text:index-body><text:index-title text:name="TOC1_Head"><text:p>Table of Contents</text:p></text:index-title>' +
    '<text:p>Introduction<text:tab/>1</text:p></text:index-body></text:table-of-content>';
  const figures = '<text:illustration-index text:name="Fig1"><text:illustration-index-source text:caption-sequence-name="Figure">' +
    '<text:index-title-template>List of Figures</text:index-title-template></text:illustration-index-source>' +
    '<text:index-body><text:index-title text:name="Fig1_Head"><text:p>List of Figures</text:p></text:index-title></text:index-body></text:illustration-index>';
  const els = await partition('odt', odt(`${toc}${figures}<text:h text:outline-level="1">Introduction</text:h>` +
    '<text:p>The survey covers twelve kilometres of coastal path between the harbours.</text:p>'));
  const texts = els.map((e) => e.text);
  assert.equal(texts.filter((t) => t === 'Table of Contents').length, 1, JSON.stringify(texts));
  assert.equal(texts.filter((t) => t === 'List of Figures').length, 1, JSON.stringify(texts));
  assert.deepEqual(texts, ['Table of Contents', 'Introduction 1', 'List of Figures', 'Introduction', 'The survey covers twelve kilometres of coastal path between the harbours.']);
});

test('odt: the later paragraphs of a list item and a list header are paragraphs; the first paragraph of an item a ListItem', async () => {
  const els = await partition('odt', odt('<text:list><text:list-header><text:p>Checks before opening the hall:</text:p></text:list-header>' +
    '<text:list-item><text:p>Test the fire alarms in every corridor.</text:p><text:p>Record each result in the log book kept at the desk.</text:p>' +
    '<text:list><text:list-item><text:p>Ring the caretaker when one fails.</text:p></text:list-item></text:list></text:list-item>' +
    '<text:list-item><text:p>Unlock the emergency exits.</text:p></text:list-item></text:list>'));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'Checks before opening the hall:'],
    ['ListItem', 'Test the fire alarms in every corridor.'],
    ['NarrativeText', 'Record each result in the log book kept at the desk.'],
    ['ListItem', 'Ring the caretaker when one fails.'],
    ['ListItem', 'Unlock the emergency exits.'],
  ]);
  assert.ok(els[3]!.metadata.category_depth! > els[1]!.metadata.category_depth!, 'the nested item is deeper');
});

test('odt: a picture\'s or shape\'s alt text (svg:title, svg:desc) is not the paragraph\'s text; a text box\'s text is', async () => {
  const picture = '<draw:frame draw:name="Image1" text:anchor-type="as-char"><draw:image xlink:href="Pictures/plan.png"/>' +
    '<svg:title>Floor plan</svg:title><svg:desc>A picture containing diagram, line. Description automatically generated</svg:desc></draw:frame>';
  const box = '<draw:frame draw:name="Box1"><draw:text-box><text:p>Fire doors must stay closed.</text:p></draw:text-box><svg:desc>Safety note</svg:desc></draw:frame>';
  const els = await partition('odt', odt(`<text:p>The plan ${picture} shows both exits of the ground floor.</text:p><text:p>${box}</text:p>`));
  assert.deepEqual(els.map((e) => e.text), ['The plan shows both exits of the ground floor.', 'Fire doors must stay closed.']);
});

test('odt: a heading\'s or item\'s formatted label (text:number) and ruby reading aids are not its text', async () => {
  const els = await partition('odt', odt('<text:list><text:list-item><text:h text:outline-level="1"><text:number>2</text:number>Method</text:h></text:list-item></text:list>' +
    '<text:list><text:list-item><text:p><text:number>a)</text:number>Weigh each sample twice.</text:p></text:list-item></text:list>' +
    '<text:p><text:ruby><text:ruby-base>東京</text:ruby-base><text:ruby-text>とうきょう</text:ruby-text></text:ruby>に住んでいます。</text:p>'));
  assert.deepEqual(els.map((e) => [e.type, e.text]).slice(0, 2), [['Title', 'Method'], ['ListItem', 'Weigh each sample twice.']]);
  assert.equal(els[2]!.text, '東京に住んでいます。');
});

test('odt: list levels count from 0, as Word lists do (the library reads ODT through Word): a list item and a bulleted line are siblings under their heading', async () => {
  const els = await partitionWithHierarchy('odt', odt('<text:h text:outline-level="1">Packing list</text:h><text:p>\u2022 Tent and poles</text:p>' +
    '<text:list><text:list-item><text:p>Sleeping bag</text:p><text:list><text:list-item><text:p>Liner for cold nights</text:p></text:list-item></text:list></text:list-item></text:list>'));
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['Title', 'Packing list', 0],
    ['ListItem', 'Tent and poles', 0],
    ['ListItem', 'Sleeping bag', 0],
    ['ListItem', 'Liner for cold nights', 1],
  ]);
  assert.equal(els[2]!.metadata.parent_id, els[0]!.element_id);
  assert.equal(els[3]!.metadata.parent_id, els[2]!.element_id);
});

test('odt: a text box or shape drawn in a paragraph is read after it, the paragraph staying whole', async () => {
  const box = (text: string): string => `<draw:frame text:anchor-type="char" draw:name="Box"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
  const shape = '<draw:custom-shape text:anchor-type="paragraph" draw:name="Callout"><text:p>Call the harbour master before mooring.</text:p></draw:custom-shape>';
  const els = await partition('odt', odt(`<text:p>The harbour handled more vessels this year ${box('Sidebar: the crane entered service in May.')}than in any year since records began.</text:p>` +
    `<text:p>${shape}Dredging of the main channel finished ahead of schedule.</text:p>`));
  assert.deepEqual(els.map((e) => e.text), [
    'The harbour handled more vessels this year than in any year since records began.',
    'Sidebar: the crane entered service in May.',
    'Dredging of the main channel finished ahead of schedule.',
    'Call the harbour master before mooring.',
  ]);
});
