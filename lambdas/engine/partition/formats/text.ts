// Plain-text partitioner (the library's partition_text): paragraphs split on blank lines, line
// breaks inside a paragraph joined with spaces, a paragraph made only of bullet lines split into
// one ListItem per line, each paragraph typed by the text heuristics.
import { makeElement, type Element } from '../../elements';
import type { FormatPartitioner } from '../types';
import { classifyText, isBulletedText, isPossibleNumberedList, stripBullet } from '../classify';
import { decodeText } from './common';

export function textToElements(text: string, languages?: string[]): Element[] {
  const out: Element[] = [];
  const paragraphs = text.replace(/\r\n?/g, '\n').split(/\n[ \t\f\v]*\n/);
  for (const para of paragraphs) {
    const lines = para.split('\n').map((l) => l.trim()).filter(Boolean);
    if (!lines.length) continue;
    const bulletLines = lines.filter((l) => isBulletedText(l) || isPossibleNumberedList(l));
    if (lines.length > 1 && bulletLines.length === lines.length) {
      for (const l of lines) {
        const t = isBulletedText(l) ? stripBullet(l) : l;
        if (t) out.push(makeElement('ListItem', t));
      }
      continue;
    }
    const joined = lines.join(' ');
    const type = classifyText(joined, { languages });
    if (type === 'ListItem' && isBulletedText(joined)) {
      const t = stripBullet(joined);
      if (t) out.push(makeElement('ListItem', t));
      continue;
    }
    out.push(makeElement(type, joined));
  }
  return out;
}

export const partitionText: FormatPartitioner = async (data, ctx) =>
  textToElements(decodeText(data, ctx.options.encoding), ctx.options.languages);
