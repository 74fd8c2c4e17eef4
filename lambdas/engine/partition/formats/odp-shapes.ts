// The reading order of a slide's shapes (draw:page's drawing children: frames, custom shapes,
// rectangles, lines, groups...), as the PPTX partitioner orders them: top-to-bottom, then
// left-to-right, document order among equals. A shape's place is its svg:y / svg:x (a line's or
// connector's svg:y1 / svg:x1, a rotated shape's draw:transform translation), in any ODF length unit; a
// group (draw:g, or a shape in a hyperlink, draw:a) stands where its topmost and leftmost shapes do and
// gives its shapes (placed in the page's coordinates, as every ODF shape is) in the same reading order.
// Groups are opened with an explicit stack, so their nesting costs no recursion (the XML caps bound it:
// limits.ts).
import { slideReadingOrder } from './slide-order';
import { childElements, localName, type DomElement } from './common';

/** Millimetres per ODF length unit. */
const MM: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, pc: 25.4 / 6, px: 25.4 / 96 };

function length(v: string | undefined): number | undefined {
  const m = v ? /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([a-z]*)\s*$/i.exec(v) : null;
  const unit = m ? MM[(m[2] || 'mm').toLowerCase()] : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : undefined;
}

/** [y, x] of a shape that says where it is. */
function ownPosition(shape: DomElement): [number, number] | undefined {
  const a = shape.attribs;
  let x = length(a['svg:x'] ?? a['svg:x1']);
  let y = length(a['svg:y'] ?? a['svg:y1']);
  if (x === undefined || y === undefined) {
    const t = /translate\s*\(\s*([^\s,)]+)[\s,]+([^\s,)]+)\s*\)/.exec(a['draw:transform'] ?? '');
    x = length(t?.[1]);
    y = length(t?.[2]);
  }
  return x !== undefined && y !== undefined ? [y, x] : undefined;
}

const isGroup = (el: DomElement): boolean => el.name === 'draw:g' || el.name === 'draw:a';
/** Drawing elements that are not shapes of the slide. */
const NOT_SHAPES = new Set(['page-thumbnail', 'layer-set']);
const isShape = (el: DomElement): boolean => (el.name.startsWith('draw:') || el.name.startsWith('dr3d:')) && !NOT_SHAPES.has(localName(el));

/** The shapes of a group, groups within it opened, in document order. */
function groupShapes(group: DomElement): DomElement[] {
  const out: DomElement[] = [];
  const stack = childElements(group).filter(isShape).reverse();
  while (stack.length) {
    const s = stack.pop()!;
    if (!isGroup(s)) out.push(s);
    else for (const c of childElements(s).filter(isShape).reverse()) stack.push(c);
  }
  return out;
}

/** Tops a twentieth of an inch apart or less (in mm) are one row, read left to right. */
const SAME_ROW = 1.27;

/** The slide's shapes (groups opened) in reading order. */
export function readingOrder(page: DomElement): DomElement[] {
  const items = childElements(page)
    .filter(isShape)
    .map((s, i) => {
      const own = isGroup(s) ? groupShapes(s) : [s];
      const places = own.map(ownPosition);
      let pos: [number, number] | undefined;
      for (const p of places) if (p) pos = pos ? [Math.min(pos[0], p[0]), Math.min(pos[1], p[1])] : p;
      // a group's shapes sorted as the slide's are (one that says nowhere stands at the group's corner)
      const shapes = own.length < 2 ? own
        : slideReadingOrder(own.map((sh, k) => ({ sh, i: k, pos: places[k] ?? pos ?? [0, 0] })), SAME_ROW).map((x) => x.sh);
      return { shapes, i, pos: pos ?? [0, 0] };
    });
  return slideReadingOrder(items, SAME_ROW).flatMap((x) => x.shapes);
}
