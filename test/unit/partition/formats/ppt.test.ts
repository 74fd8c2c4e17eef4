// Legacy .ppt read in JavaScript (no LibreOffice): the corpus file from the library's example-docs,
// and presentations built here record by record ([MS-PPT]) inside a compound file written with `cfb`:
// slide order from the slide list, placeholder text through OutlineTextRefAtom, text boxes inline,
// shapes ordered by position (tops a hair apart one row, left to right), bullets and indent levels
// from StyleTextPropAtom, speaker notes, an incremental save whose newer slide wins, and encrypted or
// broken files as 422s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import CFB from 'cfb';
import { UnprocessableDocument } from '../../../../lambdas/errors';
import { corpusDoc, expected, partition, partitionWithHierarchy } from './helpers';
import { append, box, commit, compoundFile, drawing, outlineRef, persistAtom, rec, shape, slideAtom, text, u32s, BODY, NOTES, OTHER, TITLE, type Built } from '../../../support/ppt-records';


/** Two slides (listed in the order 2 then 1 in the file) and notes on the first; optionally a later save. */
function presentation(opts: { resave?: boolean; encrypted?: boolean; loop?: boolean } = {}): Uint8Array {
  const b: Built = { stream: Buffer.alloc(0), offsets: new Map() };
  // persist ids: 1 document, 2 slide A, 3 slide B, 4 notes of A
  const slideA = box(0x03ee, [slideAtom(256), drawing([
    shape(300, 10, text(OTHER, [{ t: 'A text box lower on the slide, written by hand.' }], true)),
    shape(200, 10, outlineRef(1)),
    shape(20, 10, outlineRef(0)),
  ])]);
  const slideB = box(0x03ee, [slideAtom(0), drawing([shape(20, 10, outlineRef(0))])]);
  const notesA = box(0x03f0, [rec(0x03f1, Buffer.alloc(8)), drawing([
    shape(0, 0, text(OTHER, [{ t: '1' }])),
    shape(100, 0, text(NOTES, [{ t: 'Remember to thank the team for their work.' }])),
  ])]);
  const document = box(0x03e8, [
    rec(0x03e9, Buffer.alloc(40)),
    box(0x0ff0, [
      persistAtom(2, 256),
      text(TITLE, [{ t: 'Quarterly Review' }]),
      text(BODY, [{ t: 'Revenue grew' }, { t: 'Mostly in the north', level: 1 }, { t: 'This paragraph has no bullet at all.', bullet: false }]),
      persistAtom(3, 257),
      text(TITLE, [{ t: 'Second Slide' }]),
    ], 0),
    box(0x0ff0, [persistAtom(4, 256)], 2),
  ]);
  append(b, [[2, slideA], [3, slideB], [4, notesA], [1, document]]);
  let edit = commit(b, [1, 2, 3, 4], 1, opts.loop ? -1 : 0, opts.encrypted);
  if (opts.resave) {
    // an incremental save: slide B rewritten at the end of the stream, the old bytes left in place
    const newB = box(0x03ee, [slideAtom(0), drawing([shape(20, 10, outlineRef(0)), shape(90, 10, text(OTHER, [{ t: 'Added in the second save.' }]))])]);
    append(b, [[3, newB]]);
    edit = commit(b, [3], 1, edit);
  }
  return compoundFile(b.stream, edit);
}

// ---------- tests ----------

test('ppt: the corpus presentation is read without LibreOffice, as the library types it', async () => {
  const els = await partitionWithHierarchy('ppt', corpusDoc('fake-power-point.ppt'));
  const exp = expected('oss-0.14.8-dev4', 'fake-power-point.ppt')!;
  assert.deepEqual(els.map((e) => [e.type, e.text]), exp.map((e) => [e.type, e.text]));
  assert.deepEqual(els.slice(1, 4).map((e) => e.metadata.category_depth), [0, 1, 2]);
  assert.ok(els.every((e) => e.metadata.page_number === 1));
  // the library's hierarchy: a deeper list item hangs under the one before it, text under the title
  const ids = els.map((e) => e.element_id);
  assert.deepEqual(els.map((e) => e.metadata.parent_id), [undefined, ids[0], ids[1], ids[2], ids[0], ids[0]]);
});

test('ppt: slides in list order, shapes top to bottom, placeholders by reference, bullets and levels, notes', async () => {
  const els = await partition('ppt', presentation(), { includeSlideNotes: true });
  assert.deepEqual(els.map((e) => [e.type, e.text, e.metadata.page_number, e.metadata.category_depth]), [
    ['Title', 'Quarterly Review', 1, 0],
    ['ListItem', 'Revenue grew', 1, 0],
    ['ListItem', 'Mostly in the north', 1, 1],
    ['NarrativeText', 'This paragraph has no bullet at all.', 1, undefined],
    ['NarrativeText', 'A text box lower on the slide, written by hand.', 1, undefined],
    ['NarrativeText', 'Remember to thank the team for their work.', 1, undefined],
    ['Title', 'Second Slide', 2, 0],
  ]);
  const noNotes = await partition('ppt', presentation(), { includeSlideNotes: false });
  assert.equal(noNotes.length, 6);
});

test('ppt: after an incremental save the newest version of a slide is read', async () => {
  const els = await partition('ppt', presentation({ resave: true }));
  assert.deepEqual(els.filter((e) => e.metadata.page_number === 2).map((e) => e.text), ['Second Slide', 'Added in the second save.']);
});

test('ppt: an edit chain that loops back on itself is followed once', async () => {
  const els = await partition('ppt', presentation({ loop: true }), { includeSlideNotes: false });
  assert.deepEqual(els.map((e) => e.text), ['Quarterly Review', 'Revenue grew', 'Mostly in the north', 'This paragraph has no bullet at all.', 'A text box lower on the slide, written by hand.', 'Second Slide']);
});

test('ppt: encrypted, broken and non-PowerPoint compound files are 422s', async () => {
  await assert.rejects(partition('ppt', presentation({ encrypted: true })), (e: unknown) => e instanceof UnprocessableDocument && /encrypted/.test(e.message));
  const junk = new Uint8Array(4096);
  junk.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  for (let i = 8; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
  await assert.rejects(partition('ppt', junk), UnprocessableDocument);
  const other = CFB.utils.cfb_new();
  CFB.utils.cfb_add(other, 'WordDocument', Buffer.alloc(600, 1));
  await assert.rejects(partition('ppt', new Uint8Array(CFB.write(other, { type: 'buffer' }) as Buffer)), /PowerPoint Document/);
  // a record claiming more bytes than the stream holds is not followed
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, 'PowerPoint Document', Buffer.concat([rec(0x03e8, Buffer.alloc(0)).subarray(0, 4), u32s(0x7fffffff), Buffer.alloc(600)]));
  await assert.rejects(partition('ppt', new Uint8Array(CFB.write(cfb, { type: 'buffer' }) as Buffer)), /no document container/);
});

test('ppt: shapes whose tops are a hair apart are one row read left to right, in a group too (its child coordinates scaled)', async () => {
  const clientAnchor = (top: number, left: number, bottom: number, right: number): Buffer => {
    const a = Buffer.alloc(8);
    [top, left, right, bottom].forEach((v, i) => a.writeInt16LE(v, 2 * i));
    return rec(0xf010, a);
  };
  const rect = (type: number, l: number, t: number, r: number, b: number): Buffer => rec(type, u32s(l, t, r, b));
  const childBox = (top: number, left: number, t: string): Buffer =>
    box(0xf004, [rec(0xf00a, Buffer.alloc(8)), rect(0xf00f, left, top, left + 4000, top + 1000), box(0xf00d, [text(OTHER, [{ t }])])]);
  // a group drawn 100 master units high over child coordinates 10000 high: 2000 child units are 20 master units, under a twentieth of an inch
  const group = box(0xf003, [
    box(0xf004, [rect(0xf009, 0, 0, 10000, 10000), rec(0xf00a, Buffer.alloc(8)), clientAnchor(300, 10, 400, 500)]),
    childBox(0, 5000, 'Grouped right box, drawn a little higher.'),
    childBox(2000, 0, 'Grouped left box is read first.'),
  ]);
  const b: Built = { stream: Buffer.alloc(0), offsets: new Map() };
  // two columns of text boxes whose tops are 10 master units (a 58th of an inch) apart: one row
  const slide = box(0x03ee, [slideAtom(0), drawing([
    shape(100, 400, text(OTHER, [{ t: 'The right column starts a hair higher.' }])),
    shape(110, 10, text(OTHER, [{ t: 'The left column is read first.' }])),
    group,
    shape(20, 10, outlineRef(0)),
  ])]);
  const document = box(0x03e8, [rec(0x03e9, Buffer.alloc(40)), box(0x0ff0, [persistAtom(2, 256), text(TITLE, [{ t: 'Two Columns' }])], 0)]);
  append(b, [[2, slide], [1, document]]);
  const edit = commit(b, [1, 2], 1, 0);
  const els = await partition('ppt', compoundFile(b.stream, edit));
  assert.deepEqual(els.map((e) => e.text), [
    'Two Columns',
    'The left column is read first.',
    'The right column starts a hair higher.',
    'Grouped left box is read first.',
    'Grouped right box, drawn a little higher.',
  ]);
});

test('ppt: a slide\'s date, slide number and footer placeholders (repeated from the master) are left out, as in pptx', async () => {
  const anchor = (top: number): Buffer => {
    const a = Buffer.alloc(8);
    [top, 10, 500, top + 40].forEach((v, i) => a.writeInt16LE(v, 2 * i));
    return rec(0xf010, a);
  };
  // OEPlaceholderAtom: position, placementId ([MS-PPT] PlaceholderEnum), size, two unused bytes
  const placeholder = (top: number, placement: number, t: string): Buffer =>
    box(0xf004, [rec(0xf00a, Buffer.alloc(8)), anchor(top), box(0xf011, [rec(0x0bc3, Buffer.from([0, 0, 0, 0, placement, 0, 0, 0]))]), box(0xf00d, [text(OTHER, [{ t }])])]);
  const b: Built = { stream: Buffer.alloc(0), offsets: new Map() };
  const slide = box(0x03ee, [slideAtom(0), drawing([
    shape(20, 10, outlineRef(0)),
    shape(100, 10, text(OTHER, [{ t: 'Sales grew in every region this year.' }])),
    placeholder(500, 0x07, '*'),
    placeholder(500, 0x09, 'Company confidential'),
    placeholder(500, 0x08, '*'),
  ])]);
  const document = box(0x03e8, [rec(0x03e9, Buffer.alloc(40)), box(0x0ff0, [persistAtom(2, 256), text(TITLE, [{ t: 'Results' }])], 0)]);
  append(b, [[2, slide], [1, document]]);
  const edit = commit(b, [1, 2], 1, 0);
  const els = await partition('ppt', compoundFile(b.stream, edit));
  assert.deepEqual(els.map((e) => [e.type, e.text]), [
    ['Title', 'Results'],
    ['NarrativeText', 'Sales grew in every region this year.'],
  ]);
});
