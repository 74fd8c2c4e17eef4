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
