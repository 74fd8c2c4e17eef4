// Plain-text partitioner (the library's partition_text): paragraphs grouped as its
// auto_paragraph_grouper does, each typed by the text heuristics.
import { makeElement, type Element } from '../../elements';
import type { FormatPartitioner } from '../types';
import { classifyText, isBulletedText, stripBullet } from '../classify';
import { decodeText } from './common';
import { capExceeded, MAX_ELEMENTS } from '../limits';

/**
 * Paragraph grouping as the library's auto_paragraph_grouper: with few blank lines every line is a
 * paragraph; otherwise blank lines separate paragraphs, a paragraph starting with a bullet splits at
 * each bullet, a paragraph of short lines (< 5 words each) keeps its lines apart, and the lines of
 * any other paragraph are joined with spaces.
 */
export function groupParagraphs(text: string): string[] {
  const normalized = text.replace(/\r\n?/g, '\n');
  const lines = normalized.split('\n');
  const blank = lines.filter((l) => !l.trim()).length;
  if (lines.length > 1 && blank / lines.length < 0.1) return lines.map((l) => l.trim()).filter(Boolean);
  const out: string[] = [];
  for (const para of normalized.split(/\n[ \t\f\v]*\n/)) {
    const paraLines = para.split('\n').map((l) => l.trim()).filter(Boolean);
    if (!paraLines.length) continue;
    if (isBulletedText(paraLines[0]!)) {
      let cur: string[] = [];
      for (const l of paraLines) {
        if (isBulletedText(l) && cur.length) {
          out.push(cur.join(' '));
          cur = [];
        }
        cur.push(l);
      }
      if (cur.length) out.push(cur.join(' '));
    } else if (paraLines.every((l) => l.split(' ').length < 5)) {
      for (const l of paraLines) out.push(l);
    } else {
      out.push(paraLines.join(' '));
    }
  }
  return out;
}

export function textToElements(text: string, languages?: string[]): Element[] {
  const out: Element[] = [];
  const paragraphs = groupParagraphs(text);
  // refused before an element is made for each (a paragraph string is far smaller than an element)
  if (paragraphs.length > MAX_ELEMENTS) throw capExceeded(`The text's paragraph count (${paragraphs.length})`, MAX_ELEMENTS, 'elements');
  for (const para of paragraphs) {
    if (isBulletedText(para)) {
      const t = stripBullet(para);
      if (t) out.push(makeElement('ListItem', t));
      continue;
    }
    out.push(makeElement(classifyText(para, { languages }), para));
  }
  return out;
}

export const partitionText: FormatPartitioner = async (data, ctx) =>
  textToElements(decodeText(data, ctx.options.encoding), ctx.options.languages);
