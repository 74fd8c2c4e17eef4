// Reading order of a page's blocks (recursive XY-cut in pdf/layout.ts): columns top to bottom, the
// left one first, whatever horizontal gaps the page happens to have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readingOrder } from '../../../../lambdas/engine/partition/pdf/reading-order';

const box = (name: string, x0: number, y0: number, x1: number, y1: number) => ({ name, x0, y0, x1, y1 });
const BODY = 10;
const order = (items: ReturnType<typeof box>[]) => readingOrder(items, BODY).map((b) => b.name);

test('a column running below the end of the other one is read to its end before the other column', () => {
  // A title across both columns, a left column of three paragraphs, a right one of two ending higher
  // (y 380), a footer across the page. Between the left column's second and third paragraphs (y 400 to
  // 410) nothing on the page is drawn: a horizontal cut there must not read the left column's last
  // paragraph after the right column.
  const items = [
    box('title', 50, 40, 550, 70),
    box('left 1', 50, 100, 290, 200), box('left 2', 50, 210, 290, 400), box('left 3', 50, 410, 290, 600),
    box('right 1', 310, 100, 550, 300), box('right 2', 310, 310, 550, 380),
    box('footer', 50, 760, 550, 770),
  ];
  assert.deepEqual(order(items), ['title', 'left 1', 'left 2', 'left 3', 'right 1', 'right 2', 'footer']);
});

test('the same when the right column is the longer one', () => {
  const items = [
    box('title', 50, 40, 550, 70),
    box('left 1', 50, 100, 290, 300), box('left 2', 50, 310, 290, 380),
    box('right 1', 310, 100, 550, 200), box('right 2', 310, 210, 550, 400), box('right 3', 310, 410, 550, 600),
    box('footer', 50, 760, 550, 770),
  ];
  assert.deepEqual(order(items), ['title', 'left 1', 'left 2', 'right 1', 'right 2', 'right 3', 'footer']);
});

test('a page number under one column, far below its text, stays last', () => {
  const items = [
    box('title', 50, 40, 550, 70),
    box('left 1', 50, 100, 290, 200), box('left 2', 50, 210, 290, 400), box('left 3', 50, 410, 290, 600),
    box('right 1', 310, 100, 550, 300), box('right 2', 310, 310, 550, 380),
    box('page number', 60, 760, 70, 770),
  ];
  assert.deepEqual(order(items), ['title', 'left 1', 'left 2', 'left 3', 'right 1', 'right 2', 'page number']);
});

test('a full-width paragraph between two two-column regions still separates them', () => {
  const items = [
    box('a left', 50, 100, 290, 200), box('a right', 310, 100, 550, 180),
    box('middle', 50, 220, 550, 260),
    box('b left', 50, 280, 290, 400), box('b right', 310, 280, 550, 400),
  ];
  assert.deepEqual(order(items), ['a left', 'a right', 'middle', 'b left', 'b right']);
});

test('a short heading centred over a paragraph that stops before the middle is read before it, not as a column beside it', () => {
  // a spreadsheet printed with its sheet's name as the page's centred header, one short line under it
  assert.deepEqual(order([box('paragraph', 58, 79, 261, 89), box('heading', 284, 58, 312, 70)]), ['heading', 'paragraph']);
  // side by side, sharing height: columns, the left one first
  assert.deepEqual(order([box('right', 284, 58, 500, 200), box('left', 58, 79, 261, 300)]), ['left', 'right']);
});
