// OpenDocument text held by a drawing shape, a table cell or a note (text:p, text:h, text:list), read
// paragraph by paragraph into what the presentation partitioners type (ParaText: text, list level,
// bullet, links, emphasis). A paragraph of a list item is bulleted unless its list style turns that
// level's bullet off (a number level without a number format, as LibreOffice writes "no bullet") or it
// is a list header; the nesting of lists is its level (category_depth). A paragraph outside any list
// is not bulleted, in an outline placeholder too: LibreOffice writes an outline paragraph whose bullet
// is off outside a list, and reads such a paragraph back without one. Whitespace is ODF's: runs in the
// markup are one space, text:s / text:tab / text:line-break are the spaces, tabs and breaks.
import { childElements, descendants, firstChild, isTag, localName, type DomElement, type DomNode } from './common';
import type { ParaText } from './pptx';

export interface OdfStyles {
  /** List style name -> whether each level (0-based) shows a bullet or a number. */
  lists: Map<string, boolean[]>;
  /** Text style name -> the emphasis it sets ('b', 'i'). */
  emphasis: Map<string, string[]>;
}

/** The list and text styles defined under the given roots (content.xml's automatic styles, styles.xml's common ones). */
export function readOdfStyles(roots: (DomElement | undefined)[]): OdfStyles {
  const out: OdfStyles = { lists: new Map(), emphasis: new Map() };
  for (const root of roots) {
    if (!root) continue;
    for (const ls of descendants(root, 'text:list-style')) {
      const name = ls.attribs['style:name'];
      if (!name || out.lists.has(name)) continue;
      const levels: boolean[] = [];
      for (const lvl of childElements(ls)) {
        const n = Number(lvl.attribs['text:level']) - 1;
        if (Number.isInteger(n) && n >= 0 && n < 10) levels[n] = localName(lvl) !== 'list-level-style-number' || !!lvl.attribs['style:num-format'];
      }
      out.lists.set(name, levels);
    }
    for (const st of descendants(root, 'style:style')) {
      const name = st.attribs['style:name'];
      const props = firstChild(st, 'style:text-properties');
      if (!name || !props || out.emphasis.has(name)) continue;
      const tags: string[] = [];
      const weight = props.attribs['fo:font-weight'];
      if (weight === 'bold' || Number(weight) >= 600) tags.push('b');
      if (props.attribs['fo:font-style'] === 'italic' || props.attribs['fo:font-style'] === 'oblique') tags.push('i');
      if (tags.length) out.emphasis.set(name, tags);
    }
  }
  return out;
}

/** What the markup says of an ODF level's bullet: a level without a style of its own shows one. */
function levelBulleted(styles: OdfStyles, style: string | undefined, level: number): boolean {
  return (style ? styles.lists.get(style)?.[Math.min(level, 9)] : undefined) ?? true;
}

function paragraph(p: DomElement, styles: OdfStyles, level: number, bulleted: boolean): ParaText {
  const out: ParaText = { text: '', level, bulleted, links: [], emph: [] };
  const visit = (n: DomNode): void => {
    if (n.type === 'text') {
      out.text += n.data.replace(/[ \t\r\n]+/g, ' ');
      return;
    }
    if (!isTag(n)) return;
    const name = localName(n);
    // shapes anchored in the text, notes and comments are not the paragraph's text
    if (n.name.startsWith('draw:') || n.name.startsWith('office:') || name === 'note' || name === 'annotation') return;
    if (name === 's') out.text += ' '.repeat(Math.min(100, Number(n.attribs['text:c'] ?? 1) || 1));
    else if (name === 'tab') out.text += '\t';
    else if (name === 'line-break') out.text += '\n';
    else {
      const start = out.text.length;
      n.children.forEach(visit);
      const text = out.text.slice(start);
      if (name === 'span' && text.trim()) for (const tag of styles.emphasis.get(n.attribs['text:style-name'] ?? '') ?? []) out.emph.push({ text: text.trim(), tag });
      if (name === 'a' && n.attribs['xlink:href'] && text.trim()) out.links.push({ url: n.attribs['xlink:href'], text });
    }
  };
  p.children.forEach(visit);
  return out;
}

interface ListContext {
  style?: string;
  level: number;
}

/** The paragraphs of a text container (a text box, a shape, a cell, a note), list items at their levels. */
export function odfParagraphs(container: DomElement, styles: OdfStyles): ParaText[] {
  const out: ParaText[] = [];
  const walk = (el: DomElement, list: ListContext | undefined, bulleted: boolean): void => {
    for (const c of childElements(el)) {
      const name = localName(c);
      if (name === 'p' || name === 'h') out.push(paragraph(c, styles, list?.level ?? 0, bulleted));
      else if (name === 'list') walk(c, { style: c.attribs['text:style-name'] ?? list?.style, level: list ? list.level + 1 : 0 }, false);
      else if ((name === 'list-item' || name === 'list-header') && list) {
        const style = c.attribs['text:style-override'] ?? list.style;
        walk(c, { style, level: list.level }, name === 'list-item' && levelBulleted(styles, style, list.level));
      } else if (name === 'numbered-paragraph') {
        const level = Math.max(0, (Number(c.attribs['text:level']) || 1) - 1);
        walk(c, { level }, true);
      } else if (name === 'section') walk(c, list, bulleted);
    }
  };
  walk(container, undefined, false);
  return out;
}
