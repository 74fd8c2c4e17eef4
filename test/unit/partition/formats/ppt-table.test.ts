// Legacy .ppt tables: a group of cell rectangles whose group shape carries the table properties is one
// Table, its grid rebuilt from the cells' anchors (merged cells as spans, border lines ignored); a plain
// group of text boxes stays text. Presentations built record by record (test/support/ppt-records.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partition } from './helpers';
import { append, box, commit, compoundFile, drawing, outlineRef, persistAtom, rec, shape, slideAtom, text, OTHER, TITLE, type Built } from '../../../support/ppt-records';

const anchor16 = (l: number, t: number, r: number, b: number): Buffer => {
  const a = Buffer.alloc(16);
  [l, t, r, b].forEach((v, i) => a.writeInt32LE(v, 4 * i));
  return a;
};
/** An OfficeArtFOPT-style property table (6 bytes a property) of the given record type. */
const opt = (type: number, props: [number, number][]): Buffer => {
  const b = Buffer.alloc(6 * props.length);
  props.forEach(([id, v], i) => {
    b.writeUInt16LE(id, 6 * i);
    b.writeUInt32LE(v, 6 * i + 2);
  });
  return rec(type, b, props.length);
};
const fsp = (shapeType: number): Buffer => rec(0xf00a, Buffer.alloc(8), shapeType);

interface Cell { l: number; t: number; r: number; b: number; text?: string }

/** A group of cell shapes (and border lines); with `table` its group shape has the tableProperties property. */
function group(cells: Cell[], table: boolean): Buffer {
  const head = box(0xf004, [rec(0xf009, Buffer.alloc(16)), fsp(0), opt(0xf00b, [[0x7f, 0]]), ...(table ? [opt(0xf122, [[0x39f, 1], [0x3a0, 42]])] : []), rec(0xf010, anchor16(100, 200, 900, 600))]);
  const shapes = cells.map((c) =>
    box(0xf004, [fsp(1), rec(0xf00f, anchor16(c.l, c.t, c.r, c.b)), box(0xf00d, c.text === undefined ? [rec(0x0f9f, Buffer.from([4, 0, 0, 0]))] : [text(OTHER, [{ t: c.text }])])]),
  );
  // the borders: zero-height and zero-width lines over the grid
  const lines = [box(0xf004, [fsp(20), rec(0xf00f, anchor16(0, 0, 300, 0))]), box(0xf004, [fsp(20), rec(0xf00f, anchor16(100, 0, 100, 300))])];
  return box(0xf003, [head, ...shapes, ...lines]);
}

function deck(content: Buffer): Uint8Array {
  const b: Built = { stream: Buffer.alloc(0), offsets: new Map() };
  const slide = box(0x03ee, [slideAtom(0), drawing([shape(20, 10, outlineRef(0)), content])]);
  const document = box(0x03e8, [rec(0x03e9, Buffer.alloc(40)), box(0x0ff0, [persistAtom(2, 256), text(TITLE, [{ t: 'Results by Group' }])], 0)]);
  append(b, [[2, slide], [1, document]]);
  const edit = commit(b, [1, 2], 1, 0);
  return compoundFile(b.stream, edit);
}

// 3 columns (0-100-200-300) x 4 rows (0-50-100-150-200); "Group" spans columns 2-3, "Alpha" rows 3-4
const cells: Cell[] = [
  { l: 0, t: 0, r: 100, b: 50 },
  { l: 100, t: 0, r: 300, b: 50, text: 'Group' },
  { l: 0, t: 50, r: 100, b: 100, text: 'Item' },
  { l: 100, t: 50, r: 200, b: 100, text: 'Yes' },
  { l: 201, t: 50, r: 300, b: 100, text: 'No' }, // an edge a unit off is the same boundary
  { l: 0, t: 100, r: 100, b: 200, text: 'Alpha' },
  { l: 100, t: 100, r: 200, b: 150, text: '1' },
  { l: 200, t: 100, r: 300, b: 150 },
  { l: 100, t: 150, r: 200, b: 200 },
  { l: 200, t: 150, r: 300, b: 200, text: '4' },
];

test('ppt table: one Table with the grid of its cells, spans from merged cells, border lines ignored', async () => {
  const els = await partition('ppt', deck(group(cells, true)));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Results by Group'],
    ['Table', 'Group Item Yes No Alpha 1 4'],
  ]);
  assert.equal(
    els[1]!.metadata.text_as_html,
    '<table><tr><td></td><td colspan="2">Group</td></tr><tr><td>Item</td><td>Yes</td><td>No</td></tr>' +
      '<tr><td rowspan="2">Alpha</td><td>1</td><td></td></tr><tr><td></td><td>4</td></tr></table>',
  );
  assert.equal(els[1]!.metadata.page_number, 1);
});

test('ppt: a group without table properties stays text, shape by shape', async () => {
  const els = await partition('ppt', deck(group(cells, false)));
  assert.equal(els.filter((e) => e.type === 'Table').length, 0);
  assert.deepEqual(els.map((e) => e.text), ['Results by Group', 'Group', 'Item', 'Yes', 'No', 'Alpha', '1', '4']);
});

test('ppt table: rows left at a unit\'s height (LibreOffice lets them grow with their text) are each a row', async () => {
  const texts = [['Sample', 'Depth'], ['Upper pool', '2 m'], ['Lower pool', '5 m'], ['Outlet', '1 m']];
  const unitRows: Cell[] = texts.flatMap((row, r) => row.map((t, c) => ({ l: c * 400, t: 128 + r, r: (c + 1) * 400, b: 129 + r, text: t })));
  const els = await partition('ppt', deck(group(unitRows, true)));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Results by Group'],
    ['Table', 'Sample Depth Upper pool 2 m Lower pool 5 m Outlet 1 m'],
  ]);
});
