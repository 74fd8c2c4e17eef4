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

test('ids are unique within a response even when the hashed strings collide (page 12 item 23 vs page 122 item 3)', () => {
  // The library hashes `${filename}${text}${page}${index}` without separators, so "Manual" + "12" + "23"
  // and "Manual" + "122" + "3" are the same string (a 400-page PDF's running footer hit this).
  const els: ReturnType<typeof makeElement>[] = [];
  for (let p = 1; p <= 122; p++) {
    const n = p === 12 ? 24 : p === 122 ? 4 : 1;
    for (let i = 0; i < n; i++) els.push(makeElement('Footer', 'Internal Revenue Manual', { filename: 'irm.pdf', page_number: p }));
  }
  assignElementIds(els);
  const ids = els.map((e) => e.element_id);
  assert.equal(new Set(ids).size, ids.length, 'no duplicate element_id');
  // Ids without a collision are still the library's.
  assert.equal(els[0]!.element_id, hashElementId('irm.pdf', 'Internal Revenue Manual', 1, 0));
  for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
});
