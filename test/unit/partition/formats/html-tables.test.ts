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
