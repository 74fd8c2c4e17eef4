// HTML tables as a browser shows them: every cell a browser puts in the grid is in text_as_html and
// the Table's text, also where the markup leaves out what its parser fills in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition, types } from './helpers';

test('html: cells outside a <tr>, and rows wrapped in a <form>, are the table\'s rows (nothing lost)', async () => {
  const html = `<h1>Members</h1>
    <table border=1><td>Ana</td><td>Treasurer</td></table>
    <table><form action="/join"><tr><th>Name</th><th>Role</th></tr><tr><td>Bo</td><td><form>Chair</form></td></tr></form></table>
    <table><tr><td>Chen</td><td>Secretary</td></tr><tr><td colspan="2">Elected in May</td></tr></table>
    <p>Three tables above.</p>`;
  const els = await partition('html', html);
  assert.deepEqual(types(els), ['Title', 'Table', 'Table', 'Table', 'UncategorizedText']);
  assert.equal(els[1]!.text, 'Ana Treasurer');
  assert.equal(els[1]!.metadata.text_as_html, '<table><tr><td>Ana</td><td>Treasurer</td></tr></table>');
  assert.equal(els[2]!.text, 'Name Role Bo Chair');
  assert.equal(els[2]!.metadata.text_as_html, '<table><tr><td>Name</td><td>Role</td></tr><tr><td>Bo</td><td>Chair</td></tr></table>');
  assert.equal(els[3]!.metadata.text_as_html, '<table><tr><td>Chen</td><td>Secretary</td></tr><tr><td colspan="2">Elected in May</td></tr></table>');
});

test('html: a table marked role="presentation" (newsletters, e-mails) gives the blocks in its cells; a data table inside stays a Table', async () => {
  const html = `<table role="presentation" width="100%"><tr><td colspan="2"><b>Riverside Garden</b></td></tr>
    <tr><td>Home<br>Events</td><td><h2>Planting day</h2><p>Bring gloves and a packed lunch.</p>
    <table border="1"><tr><th>Plot</th><th>Fee</th></tr><tr><td>Half</td><td>£25</td></tr></table>
    <p>Fees are due by 31 March.</p></td></tr></table>
    <table role="none"><tr><td><p>Dear members, welcome to the spring edition of our newsletter.</p></td></tr>
    <tr><td><ul><li>Bring binoculars.</li></ul></td></tr></table>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['UncategorizedText', 'Riverside Garden'], ['UncategorizedText', 'Home'], ['UncategorizedText', 'Events'],
    ['Title', 'Planting day'], ['NarrativeText', 'Bring gloves and a packed lunch.'], ['Table', 'Plot Fee Half £25'],
    ['NarrativeText', 'Fees are due by 31 March.'],
    ['NarrativeText', 'Dear members, welcome to the spring edition of our newsletter.'], ['ListItem', 'Bring binoculars.'],
  ]);
  assert.equal(els[5]!.metadata.text_as_html, '<table><tr><td>Plot</td><td>Fee</td></tr><tr><td>Half</td><td>£25</td></tr></table>');
});

test('html: a table without that mark stays one Table though its cells hold headings and paragraphs, as both reference readers make it', async () => {
  const html = `<table><tr><td><h2>Planting day</h2><p>Bring gloves.</p></td><td><h2>Fees</h2><p>Due in March.</p></td></tr></table>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => e.type), ['Table']);
});

test('html: a code listing set in a table beside its line numbers is a CodeSnippet of the code alone', async () => {
  const html = `<p>Run:</p><div class="highlight"><table class="highlighttable"><tr>
    <td class="linenos"><div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2</span></pre></div></td>
    <td class="code"><div><pre><span></span>git clone https://example.com/worker.git\n<span class="nb">cd</span> worker\n</pre></div></td>
    </tr></table></div><table><tr><td>Example</td><td><pre>make deploy</pre></td></tr></table>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['UncategorizedText', 'Run:'], ['CodeSnippet', 'git clone https://example.com/worker.git\ncd worker'], ['Table', 'Example make deploy'],
  ]);
});

test('html: a <tfoot> written before the body (as HTML 4 asked) is the table\'s last row, where a browser draws it', async () => {
  const html = `<table><thead><tr><th>Region</th><th>Units</th></tr></thead><tfoot><tr><td>Total</td><td>300</td></tr></tfoot>
    <tbody><tr><td>North</td><td>100</td></tr><tr><td>South</td><td>200</td></tr></tbody></table>`;
  const els = await partition('html', html);
  assert.equal(els[0]!.text, 'Region Units North 100 South 200 Total 300');
  assert.equal(els[0]!.metadata.text_as_html,
    '<table><tr><td>Region</td><td>Units</td></tr><tr><td>North</td><td>100</td></tr><tr><td>South</td><td>200</td></tr><tr><td>Total</td><td>300</td></tr></table>');
});

test('html: a data table whose header cells an editor set as headings stays one Table', async () => {
  const html = `<table><tr><th><h3>Plan</h3></th><th><h3>Price</h3></th></tr><tr><td>Starter</td><td>$10</td></tr></table>`;
  const els = await partition('html', html);
  assert.deepEqual(els.map((e) => [e.type, e.text]), [['Table', 'Plan Price Starter $10']]);
});
