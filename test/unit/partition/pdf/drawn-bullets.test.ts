// List bullets drawn as shapes (issue 29): browsers print a list's discs and a nested list's circles
// as paths, so the items started with their words only and ran together as paragraphs. A small dot
// just before a line's first word, at its middle, is now its bullet: each item a ListItem; a stroked
// square (a form's box to tick) its box marker.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { bulletsPdf } from '../../../support/report-pdf';

after(async () => { await shutdownPagePool(); });

it('items opened by drawn discs and circles are list items, one each', async () => {
  const data = bulletsPdf([
    { t: 'What changed this year', size: 14, bold: true },
    { t: 'The offices handled more requests than in any previous year of their work.', size: 10 },
    { t: 'Requests rose by a fifth', size: 10, bullet: 1 },
    { t: 'Online requests doubled', size: 10, bullet: 2 },
    { t: 'Walk-in requests fell slightly', size: 10, bullet: 2 },
    { t: 'Waiting times fell in every office', size: 10, bullet: 1 },
    { t: 'Would you visit an office again?', size: 10 },
    { t: 'Yes, in person', size: 10, bullet: 3 },
    { t: 'No, online only', size: 10, bullet: 3 },
  ]);
  const { elements } = await partition({ data, filename: 'list.pdf' }, { strategy: 'fast' });
  const items = elements.filter((e) => e.type === 'ListItem').map((e) => e.text);
  const dump = elements.map((e) => `${e.type}: ${e.text}`).join('\n');
  for (const t of ['Requests rose by a fifth', 'Online requests doubled', 'Walk-in requests fell slightly', 'Waiting times fell in every office']) {
    assert.ok(items.some((i) => i.endsWith(t) && i.length <= t.length + 2), `"${t}" its own item:\n${dump}`);
  }
  assert.ok(elements.some((e) => e.type === 'NarrativeText' && e.text.startsWith('The offices handled')), dump);
  // a stroked square is a box to tick: the answer's marker is the box, not a bullet
  for (const t of ['Yes, in person', 'No, online only']) assert.ok(items.includes(`\u25a1 ${t}`), `"${t}" opened by its box:\n${dump}`);
});
