// Lists in HTML and Markdown: one ListItem per item a reader sees a bullet (or number) for. The paragraphs
// that open an item (a loose Markdown list's explanations) are that item's text; the item's text after a
// nested list, a code block or a table is a paragraph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition, types } from './helpers';

test('markdown: a list item with a second paragraph is one ListItem, nested items stay items', async () => {
  const md = `## Decisions

* Ship version two by the end of September.

  The date is firm; marketing has booked the launch event for that week.

* Drop the legacy importer.
    1. Notify customers.
    2. Archive the code.

* Hire two engineers.
`;
  const els = await partition('md', md);
  assert.deepEqual(types(els), ['Title', 'ListItem', 'ListItem', 'ListItem', 'ListItem', 'ListItem']);
  assert.equal(els[1]!.text, 'Ship version two by the end of September. The date is firm; marketing has booked the launch event for that week.');
  assert.deepEqual(els.filter((e) => e.type === 'ListItem').map((e) => e.metadata.category_depth), [1, 1, 2, 2, 1]);
});

test('html: text after a nested list or code is no new item; an item opening with a heading still has its ListItem', async () => {
  const html = `<ul><li>Parent item<ul><li>Child item</li></ul>and the rest of the parent item's explanation here.</li>
    <li><h4>Step heading</h4><p>Text of the step.</p><p>More on it.</p></li>
    <li><p>Define a worker:</p><pre>function worker() {}</pre><p>Then push jobs to the queue.</p></li></ul>`;
  const els = await partition('html', html);
  assert.deepEqual(types(els).filter((t) => t === 'ListItem').length, 4);
  assert.deepEqual(types(els).slice(3), ['Title', 'ListItem', 'ListItem', 'CodeSnippet', 'NarrativeText']);
  assert.equal(els[4]!.text, 'Text of the step. More on it.');
  assert.equal(els[2]!.text, "and the rest of the parent item's explanation here.");
  assert.notEqual(els[2]!.type, 'ListItem');
});

test('html saved by Word or Outlook: paragraphs styled as list levels (mso-list) are ListItems at that depth, without the bullet or number Word draws', async () => {
  const label = (mark: string) => `<![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>${mark}<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>`;
  const html = `<div class=WordSection1><p class=MsoNormal>Key points for the quarter are these ones:</p>
    <p class=MsoListParagraphCxSpFirst style='text-indent:-.25in;mso-list:l0 level1 lfo1'>${label('·')}Freight spend down 11%</p>
    <p class=MsoListParagraphCxSpMiddle style='margin-left:1.0in;text-indent:-.25in;mso-list:l0 level2 lfo1'>${label('o')}Northern Rail Logistics</p>
    <p class=MsoListParagraph style='text-indent:-.25in;mso-list:l1 level1 lfo2'>${label('1.')}Renegotiate the warehouse lease before March.</p>
    <p class=MsoNormal>Figures are unaudited.</p></div>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['NarrativeText', 'Key points for the quarter are these ones:', undefined],
    ['ListItem', 'Freight spend down 11%', 1], ['ListItem', 'Northern Rail Logistics', 2],
    ['ListItem', 'Renegotiate the warehouse lease before March.', 1], ['NarrativeText', 'Figures are unaudited.', undefined],
  ]);
});

test('html saved by Word as a filtered web page: paragraphs opening with a drawn label and Word\'s 7-point spacer are ListItems, their depth from the left margin', async () => {
  const spacer = `<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp; </span>`;
  const html = `<div class=WordSection1><p class=MsoNormal>Staff may book travel in these cases:</p>
    <p class=MsoListParagraphCxSpFirst style='margin-left:.5in;text-indent:-.25in'><span style='font-family:Symbol'>&middot;${spacer}</span>Client visits approved by a manager</p>
    <p class=MsoListParagraphCxSpMiddle style='margin-left:1.0in;text-indent:-.25in'><span style='font-family:"Courier New"'>o${spacer}</span>Rail for trips under four hours</p>
    <p class=MsoListParagraphCxSpLast style='margin-left:1.5in;text-indent:-.25in'><span style='font-family:Wingdings'>&sect;${spacer}</span>Standard class only</p>
    <p class=MsoListParagraph style='text-indent:-.25in'>2.${spacer}Submit the form within 30 days.</p>
    <p class=MsoNormal>Sizes: <span style='font:7.0pt Arial'>small print</span> applies.</p></div>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['NarrativeText', 'Staff may book travel in these cases:', undefined],
    ['ListItem', 'Client visits approved by a manager', 1], ['ListItem', 'Rail for trips under four hours', 2],
    ['ListItem', 'Standard class only', 3], ['ListItem', 'Submit the form within 30 days.', 1],
    ['NarrativeText', 'Sizes: small print applies.', undefined],
  ]);
});

test('html: items of a <menu> or <dir> are list items at the depth a <ul>\'s are', async () => {
  const els = await partition('html', '<menu><li>Open file</li><li>Save file</li></menu><dir><li>Archive</li></dir><ul><li>Print</li></ul>');
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.category_depth]), [
    ['ListItem', 'Open file', 1], ['ListItem', 'Save file', 1], ['ListItem', 'Archive', 1], ['ListItem', 'Print', 1],
  ]);
});
