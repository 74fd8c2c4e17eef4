// The reading frame of a page: the orientation in which its main text runs left to right, with a
// top-left origin and y down. A page is laid out in this frame, so a page with a /Rotate entry or a
// landscape table printed sideways on a portrait page reads (and finds its tables) like an upright
// one. For an upright page it is the usual top-down flip of PDF user space.

/** Quarter turns of the text's baseline direction in PDF user space (counter-clockwise, y up). */
export type QuarterTurn = 0 | 1 | 2 | 3;

export interface PageFrame {
  turn: QuarterTurn;
  width: number;
  height: number;
  /** Maps a point of PDF user space (y up) to the frame (top-left origin, y down). */
  map(x: number, y: number): [number, number];
}

/** Page box in user space: [left, bottom, right, top]. */
export type UserBox = [number, number, number, number];

export function makeFrame(turn: QuarterTurn, box: UserBox): PageFrame {
  const [l, b, r, t] = box;
  const w = r - l, h = t - b;
  switch (turn) {
    case 1: return { turn, width: h, height: w, map: (x, y) => [y - b, x - l] };
    case 2: return { turn, width: w, height: h, map: (x, y) => [r - x, y - b] };
    case 3: return { turn, width: h, height: w, map: (x, y) => [t - y, r - x] };
    default: return { turn: 0, width: w, height: h, map: (x, y) => [x - l, t - y] };
  }
}

/** Quarter turns of a text matrix's baseline direction (a, b). */
export function turnOf(a: number, b: number): QuarterTurn {
  const k = Math.round(Math.atan2(b, a) / (Math.PI / 2));
  return (((k % 4) + 4) % 4) as QuarterTurn;
}

/** Maps a user-space rectangle to a frame box. */
export function mapBox(f: PageFrame, x0: number, y0: number, x1: number, y1: number): { x0: number; y0: number; x1: number; y1: number } {
  const [ax, ay] = f.map(x0, y0);
  const [bx, by] = f.map(x1, y1);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}
