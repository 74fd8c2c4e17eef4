// Paragraphs of HTML laid out with line breaks instead of <p> (old pages, mails, e-books): a blank line
// made by two <br> in a row ends a paragraph, as a reader sees it; one <br> only breaks a line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition, types } from './helpers';

test('html: <br><br> separates paragraphs; a single <br>, a link or emphasis across it, a list item keep one element', async () => {
  const html = `<body><font face="verdana">
    When I moved to the countryside, the first thing I wanted was a vegetable garden and a few fruit trees.<br><br>
    The first mistake was planting too early. A late frost killed half of the seedlings.<br>
    &nbsp;<br>
    The second mistake was watering at noon, when most of the water evaporated.<br><br><br>
    Thanks to <a href="/m">my neighbour Maria</a> for her advice.<br>Jane
    <ul><li>Sow in April.<br><br>Water in the evening.</li></ul>
    <p>A <b>bold line<br><br>over a blank line</b> stays whole.</p>
  </font></body>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => e.text), [
    'When I moved to the countryside, the first thing I wanted was a vegetable garden and a few fruit trees.',
    'The first mistake was planting too early. A late frost killed half of the seedlings.',
    'The second mistake was watering at noon, when most of the water evaporated.',
    'Thanks to my neighbour Maria for her advice. Jane',
    'Sow in April. Water in the evening.',
    'A bold line over a blank line stays whole.',
  ]);
  assert.deepEqual(types(els).slice(0, 3), ['NarrativeText', 'NarrativeText', 'NarrativeText']);
  assert.equal(els[4]!.type, 'ListItem');
  assert.deepEqual(els[3]!.metadata.link_start_indexes, [10]);
  assert.deepEqual(els[5]!.metadata.emphasized_text_contents, ['bold line over a blank line']);
});
