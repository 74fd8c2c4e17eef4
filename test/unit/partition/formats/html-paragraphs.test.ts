// What a reader sees of HTML text. Text laid out with line breaks instead of <p> (old pages, mails,
// e-books): outside a <p> each line is an element, inside one a blank line (two <br>) ends it. Elements
// marked hidden are not shown, so give no text; nor do characters a browser draws nothing for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition, types } from './helpers';

test('html: <br><br> separates paragraphs; outside a <p> every <br> ends a line\'s element; a link or emphasis across it, a list item keep one element', async () => {
  const html = `<body><font face="verdana">
    When I moved to the countryside, the first thing I wanted was a vegetable garden and a few fruit trees.<br><br>
    The first mistake was planting too early. A late frost killed half of the seedlings.<br>
    &nbsp;<br>
    The second mistake was watering at noon, when most of the water evaporated.<br><br><br>
    Thanks to <a href="/m">my neighbour Maria</a> for her advice.<br>Jane
    <ul><li>Sow in April.<br><br>Water in the evening.</li></ul>
    <p>A <b>bold line<br><br>over a blank line</b> stays whole.</p>
    <p>Jane Roe<br>221B Baker Street<br>London</p>
    <p>The first paragraph of a letter written with breaks.<br><br>The second one, after a blank line.</p>
  </font></body>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => e.text), [
    'When I moved to the countryside, the first thing I wanted was a vegetable garden and a few fruit trees.',
    'The first mistake was planting too early. A late frost killed half of the seedlings.',
    'The second mistake was watering at noon, when most of the water evaporated.',
    'Thanks to my neighbour Maria for her advice.',
    'Jane',
    'Sow in April. Water in the evening.',
    'A bold line over a blank line stays whole.',
    'Jane Roe 221B Baker Street London',
    'The first paragraph of a letter written with breaks.',
    'The second one, after a blank line.',
  ]);
  assert.deepEqual(types(els).slice(0, 3), ['NarrativeText', 'NarrativeText', 'NarrativeText']);
  assert.equal(els[5]!.type, 'ListItem');
  assert.deepEqual(els[3]!.metadata.link_start_indexes, [10]);
  assert.deepEqual(els[6]!.metadata.emphasized_text_contents, ['bold line over a blank line']);
});

test('html: lines of a <div> set apart by <br> (a mail\'s signature, a poem\'s lines) are elements of their own', async () => {
  const html = `<div dir="ltr">Best regards,<br>Jane Roe<br>Head of Operations</div>
    <div class="stanza"><span>But at afternoon or almost eve<br></span><span>Tis better; then the silence grows<br></span></div>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => e.text), [
    'Best regards,', 'Jane Roe', 'Head of Operations', 'But at afternoon or almost eve', 'Tis better; then the silence grows',
  ]);
});

test('html: elements marked hidden (an inactive tab, a hidden cell or row) give no text, as a browser shows none', async () => {
  const html = `<h1>Plans</h1>
    <div id="monthly"><p>The monthly plan costs 10 dollars and can be cancelled at any time.</p></div>
    <div id="yearly" hidden><p>The yearly plan costs 100 dollars, billed once a year.</p></div>
    <p>Questions? <span hidden="">internal note</span>Write to us.</p>
    <table><tr><td>Plan</td><td hidden>Code</td><td>Price</td></tr><tr hidden><td>Trial</td><td>T0</td><td>0</td></tr>
    <tr><td>Monthly</td><td hidden>M1</td><td>10</td></tr></table>`;
  const els = await partition('html', html);
  assert.deepEqual(types(els), ['Title', 'NarrativeText', 'NarrativeText', 'Table']);
  assert.equal(els[2]!.text, 'Questions? Write to us.');
  assert.equal(els[3]!.metadata.text_as_html, '<table><tr><td>Plan</td><td>Price</td></tr><tr><td>Monthly</td><td>10</td></tr></table>');
});

test('html: soft hyphens, zero-width spaces and word joiners, which a browser does not draw, are not in the text', async () => {
  const html = `<h2>Donau&shy;dampf&shy;schiff&shy;fahrt</h2>
    <p>This post de&shy;scribes a very&#8203;long&#8203;identifier and a&#x2060;joined word.</p>
    <ul><li>Kaffee&shy;maschine</li></ul><table><tr><td>Bundes&shy;land</td><td>Ber&#8203;lin</td></tr></table>
    <p>Persian keeps its non-joiner: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645</p>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => e.text), [
    'Donaudampfschifffahrt',
    'This post describes a verylongidentifier and ajoined word.',
    'Kaffeemaschine',
    'Bundesland Berlin',
    'Persian keeps its non-joiner: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
  ]);
  assert.equal(els[3]!.metadata.text_as_html, '<table><tr><td>Bundesland</td><td>Berlin</td></tr></table>');
});

test('markdown: a soft hyphen in Markdown text is dropped as in HTML', async () => {
  const [p] = await partition('md', 'Die Kaffee\u00admaschine ist kaputt und muss repariert werden.\n');
  assert.equal(p!.text, 'Die Kaffeemaschine ist kaputt und muss repariert werden.');
});
