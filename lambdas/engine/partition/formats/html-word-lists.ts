// Lists in the HTML Word writes (a document saved as a web page, an Outlook mail): no <ul>/<ol>, but
// paragraphs, each opening with the bullet or number Word draws for a browser. Two shapes:
// - "Web Page": the paragraph is styled "mso-list:l0 level2 lfo1" and its label sits in a span styled
//   "mso-list:Ignore";
// - "Web Page, Filtered" (and mails passed through it): the mso styles are gone, but the label is still
//   followed by a span of spaces in a 7-point font, Word's tab after a list label, and the level shows
//   in the paragraph's left margin (half an inch a level).
// Either way the paragraph is a list item at that level, and its label is no text of it, as an <li>'s
// number is none.
import { isTag, type DomElement, type DomNode } from './common';

const MSO_LIST_LABEL = /mso-list:\s*ignore/i;
const MSO_LIST_LEVEL = /mso-list:\s*l\d+\s+level(\d+)/i;
/** Word's spacer after a list label: a few non-breaking spaces in a 7-point font. */
const LABEL_SPACER_FONT = /(?:^|;)\s*font:\s*7(?:\.0)?pt\b/i;
/** What Word draws as a list's label: a bullet glyph (its own, or a Symbol/Wingdings one) or a number or letter with its stop. */
const LABEL = /^(?:[^\p{L}\p{N}\s]|o|(?:\d{1,3}|[a-z]|[ivxlc]{1,6})(?:\.\d{1,3})*[.)])$/iu;
const MARGIN_LEFT = /(?:^|;)\s*margin-left:\s*(-?\d*\.?\d+)(in|cm|mm|pt|px)/i;
const INCHES: Record<string, number> = { in: 1, cm: 1 / 2.54, mm: 1 / 25.4, pt: 1 / 72, px: 1 / 96 };

/** A span holding the label Word drew for a list item ("mso-list:Ignore"): not the item's text. */
export const isWordListLabel = (n: DomElement): boolean => MSO_LIST_LABEL.test(n.attribs['style'] ?? '');

const textOf = (n: DomNode): string => (n.type === 'text' ? (n as { data: string }).data : isTag(n) ? n.children.map(textOf).join('') : '');

/**
 * The list level (1 for the outermost) of a paragraph Word wrote as a list item, or undefined. For a
 * filtered export's item, its drawn label and the spacer after it are taken out of the paragraph.
 */
export function wordListLevel(p: DomElement): number | undefined {
  const style = p.attribs['style'] ?? '';
  const level = MSO_LIST_LEVEL.exec(style)?.[1];
  if (level) return Number(level);
  const taken = leadingLabel(p);
  if (!taken) return undefined;
  for (const n of taken) n.parent?.children.splice(n.parent.children.indexOf(n), 1);
  const margin = MARGIN_LEFT.exec(style);
  const inches = margin ? Number(margin[1]) * INCHES[margin[2]!.toLowerCase()]! : 0;
  return Math.max(1, Math.round(inches / 0.5));
}

/** The nodes making up a paragraph's leading "label + 7-point spacer" (in document order), or undefined. */
function leadingLabel(p: DomElement): DomNode[] | undefined {
  const before: DomNode[] = [];
  let spacer: DomElement | undefined;
  // depth first through the paragraph's opening nodes, up to the spacer
  const walk = (n: DomNode): boolean => {
    if (spacer) return true;
    if (isTag(n) && LABEL_SPACER_FONT.test(n.attribs['style'] ?? '') && !/[^\s\u00a0]/.test(textOf(n))) { spacer = n; return true; }
    if (n.type === 'text') { before.push(n); return textOf(n).replace(/[\s\u00a0]/g, '').length > 6; }
    if (isTag(n)) for (const c of n.children) if (walk(c)) return true;
    return false;
  };
  for (const c of p.children) if (walk(c)) break;
  if (!spacer) return undefined;
  const label = before.map(textOf).join('').replace(/[\s\u00a0]+/g, '');
  return LABEL.test(label) ? [...before, spacer] : undefined;
}
