import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignElementIds, hashElementId, makeElement } from '../../lambdas/engine/elements';

test('hash ids follow the open-source formula and remap parent ids', () => {
  const title = makeElement('Title', 'Intro', { filename: 'a.txt', page_number: 1 });
  const body = makeElement('NarrativeText', 'Hello world.', { filename: 'a.txt', page_number: 1, parent_id: title.element_id });
  assignElementIds([title, body]);
  assert.equal(title.element_id, hashElementId('a.txt', 'Intro', 1, 0));
  assert.equal(body.element_id, hashElementId('a.txt', 'Hello world.', 1, 1));
  assert.equal(body.metadata.parent_id, title.element_id);
  assert.match(title.element_id, /^[0-9a-f]{32}$/);
});

test('unique ids are UUID4', () => {
  const [el] = assignElementIds([makeElement('Title', 'x')], true);
  assert.match(el!.element_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
