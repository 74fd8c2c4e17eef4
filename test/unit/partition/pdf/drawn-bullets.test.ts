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

it('a right-to-left list\'s drawn bullets stand right of its items: each item a list item', async () => {
  const { layoutPage } = await import('../../../../lambdas/engine/partition/pdf/layout');
  const { wordsToLines } = await import('../../../../lambdas/engine/partition/pdf/lines');
  // Hebrew set from the right margin (x 540): each line's words right to left, a disc 6 points right of the first
  const line = (y: number, ...ws: string[]) => {
    let x = 540;
    return ws.map((t) => { const w = { t, x0: x - 5 * t.length, x1: x, y0: y, y1: y + 10, size: 10, bold: false, italic: false }; x = w.x0 - 3; return w; });
  };
  const words = [
    ...line(100, 'הפעילות', 'העיקרית', 'הייתה', 'סקר', 'הציפורים', 'באגמים', 'הקטנים', 'בצפון', 'הארץ.'),
    ...line(125, 'סקר', 'באביב'), ...line(139, 'סקר', 'בסתיו'), ...line(153, 'סקר', 'בחורף'),
  ].map((w) => (w.y0 >= 125 ? { ...w, x0: w.x0 - 12, x1: w.x1 - 12 } : w));
  const marks = [125, 139, 153].map((y) => ({ kind: 'disc' as const, x0: 533, x1: 537, y0: y + 3, y1: y + 7 }));
  const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h: [], v: [], marks } }, { tables: true });
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['NarrativeText', 'הפעילות העיקרית הייתה סקר הציפורים באגמים הקטנים בצפון הארץ.'],
    ['ListItem', 'סקר באביב'], ['ListItem', 'סקר בסתיו'], ['ListItem', 'סקר בחורף'],
  ]);
});
