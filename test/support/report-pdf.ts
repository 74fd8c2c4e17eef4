// One-page report PDFs written by hand: numbered section headings set larger and bold than the body,
// a numbered list in the body's size; lists whose bullets are drawn as shapes (a filled disc, a
// stroked circle for a nested item), not as text, as browsers print them.
import { onePagePdf } from './pdf-writer';

const esc = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);

/** lines: [text, size, bold], top to bottom. */
export function reportPdf(lines: [string, number, boolean][]): Uint8Array {
  return bulletsPdf(lines.map(([t, size, bold]) => ({ t, size, bold })));
}

/** A disc (filled) or circle (stroked) of radius r centred at (x, y), as four Bézier quarters. */
function circle(x: number, y: number, r: number, fill: boolean): string {
  const k = 0.5523 * r;
  return `${x + r} ${y} m ${x + r} ${y + k} ${x + k} ${y + r} ${x} ${y + r} c ${x - k} ${y + r} ${x - r} ${y + k} ${x - r} ${y} c `
    + `${x - r} ${y - k} ${x - k} ${y - r} ${x} ${y - r} c ${x + k} ${y - r} ${x + r} ${y - k} ${x + r} ${y} c h ${fill ? 'f' : 'S'}`;
}

/**
 * Lines top to bottom; `bullet` draws a disc (1) or, indented, a circle (2) before the line's text, or
 * a stroked square (3: a form's box to tick).
 */
export function bulletsPdf(lines: { t: string; size: number; bold?: boolean; bullet?: 1 | 2 | 3 }[]): Uint8Array {
  let y = 720;
  const ops: string[] = [];
  for (const { t, size, bold, bullet } of lines) {
    const x = bullet === 2 ? 108 : bullet ? 90 : 72;
    if (bullet === 3) ops.push(`0.5 w ${x - 12} ${y - 0.05 * size} ${0.7 * size} ${0.7 * size} re S`);
    else if (bullet) ops.push(`0.5 w ${circle(x - 9, y + 0.33 * size, 0.18 * size, bullet === 1)}`);
    ops.push(`BT /${bold ? 'F2' : 'F1'} ${size} Tf ${x} ${y} Td (${esc(t)}) Tj ET`);
    y -= size * 1.8;
  }
  return onePagePdf(ops.join('\n'), ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>']);
}
