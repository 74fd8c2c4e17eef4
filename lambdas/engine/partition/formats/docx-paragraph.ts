// A WordprocessingML paragraph read into its text and what typing it needs: its style's heading depth
// and list level (or its own numbering), whether every run is bold, its largest size, its links,
// emphasis and page breaks. Runs, fields (only their results), Office Math (as LaTeX), symbols, ruby
// bases and one branch of markup-compatibility alternatives give text; deletions, instructions and
// drawings do not (text boxes are read as blocks of their own by docx.ts).
import { attr, firstChild, isTag, localName, type DomElement, type DomNode } from './common';
import { DocxStyles, onOff, outlineLevel, rPrSize } from './docx-styles';
import { alternateBranch } from './docx-boxes';
import { ommlToLatex } from './omml';
import { inlineMath } from './math-latex';
import { symbolChar } from './symbol-fonts';
import { FieldNesting } from './docx-fields';
import type { Relationship } from './ooxml-package';

// w:rt: the reading set above East Asian text (ruby); the text is its base (w:rubyBase)
const SKIP_IN_PARAGRAPH = new Set(['pPr', 'rPr', 'delText', 'instrText', 'drawing', 'pict', 'object', 'footnoteReference', 'endnoteReference', 'commentReference', 'del', 'moveFrom', 'rt']);

/** Run content that puts text or a break in the paragraph. */
const SHOWN_IN_RUN = new Set(['t', 'oMath', 'oMathPara', 'tab', 'ptab', 'br', 'cr', 'noBreakHyphen', 'sym']);

export interface Para {
  text: string;
  styleName: string;
  /** heading depth from the paragraph's w:outlineLvl or its style chain */
  headingDepth?: number;
  /** every run with text is bold */
  allBold: boolean;
  /** largest font size (half-points) of a run with text */
  maxSize: number;
  numbered: boolean;
  ilvl: number;
  links: { url: string; text: string; start: number }[];
  emph: { text: string; tag: string; start: number }[];
  /** text offsets of page breaks (rendered or explicit) inside the paragraph */
  breaks: number[];
  /** characters of text that came from Office Math (m:oMath, as LaTeX with its $ delimiters) */
  mathChars: number;
}

/** `renderedBreaks`: the document marks rendered page breaks, so an explicit one adds none of its own. */
export function readParagraph(p: DomElement, styles: DocxStyles, rels: Map<string, Relationship>, renderedBreaks: boolean): Para {
  const para: Para = { text: '', styleName: '', allBold: true, maxSize: 0, numbered: false, ilvl: 0, links: [], emph: [], breaks: [], mathChars: 0 };
  const pPr = firstChild(p, 'pPr');
  const ps = pPr ? firstChild(pPr, 'pStyle') : undefined;
  const sid = ps ? attr(ps, 'val') : undefined;
  if (sid) para.styleName = styles.name(sid);
  // a direct w:outlineLvl overrides the style's (9 = body text)
  const ownLevel = outlineLevel(pPr);
  para.headingDepth = ownLevel !== undefined ? (ownLevel < 9 ? ownLevel : undefined) : styles.headingDepth(sid);
  const numPr = pPr ? firstChild(pPr, 'numPr') : undefined;
  if (numPr) {
    const numId = firstChild(numPr, 'numId');
    // a numPr without a numId keeps the style's numbering; numId 0 switches it off
    para.numbered = numId ? attr(numId, 'val') !== '0' : styles.numbered(sid);
    const ilvl = firstChild(numPr, 'ilvl');
    para.ilvl = ilvl ? Number(attr(ilvl, 'val') ?? 0) || 0 : styles.listLevel(sid);
  } else {
    para.numbered = styles.numbered(sid);
    para.ilvl = styles.listLevel(sid);
  }
  const styleBold = styles.bold(sid) ?? false;
  const styleSize = styles.size(sid) ?? styles.bodySize;
  const fields = new FieldNesting();
  const visit = (n: DomNode, link?: { url: string; start: number }): void => {
    if (!isTag(n)) return;
    const name = localName(n);
    if (SKIP_IN_PARAGRAPH.has(name)) return;
    // what a field's instruction holds (nested fields' results too) is not shown
    if (fields.inInstruction && SHOWN_IN_RUN.has(name)) return;
    switch (name) {
      case 'fldChar':
        para.text += fields.mark(n) ?? '';
        return;
      case 't':
        para.text += n.children.map((c) => (c.type === 'text' ? c.data : '')).join('');
        return;
      case 'oMath':
      case 'oMathPara': {
        // Office Math as LaTeX, set off by $ in the paragraph's text (classify drops them for a
        // paragraph that is only a formula)
        const math = inlineMath(ommlToLatex(n));
        para.text += math;
        para.mathChars += math.replace(/\s/g, '').length;
        return;
      }
      case 'tab':
      case 'ptab':
        para.text += '\t';
        return;
      case 'br':
        if (attr(n, 'type') === 'page') {
          if (!renderedBreaks) para.breaks.push(para.text.length);
        } else para.text += '\n';
        return;
      case 'cr':
        para.text += '\n';
        return;
      case 'sym': {
        // a character of a symbol font (Insert Symbol: a degree sign, a Greek letter, a check box)
        const ch = symbolChar(attr(n, 'font'), parseInt(attr(n, 'char') ?? '', 16));
        if (ch) para.text += ch;
        return;
      }
      case 'noBreakHyphen':
        para.text += '-';
        return;
      case 'lastRenderedPageBreak':
        para.breaks.push(para.text.length);
        return;
      case 'r': {
        const rPr = firstChild(n, 'rPr');
        const start = para.text.length;
        for (const c of n.children) visit(c, link);
        const t = para.text.slice(start);
        if (rPr && t.trim()) {
          if (onOff(firstChild(rPr, 'b'))) para.emph.push({ text: t, tag: 'b', start });
          if (onOff(firstChild(rPr, 'i'))) para.emph.push({ text: t, tag: 'i', start });
        }
        if (t.trim()) {
          // direct formatting, else the run's character style, else the paragraph style
          const rs = rPr ? firstChild(rPr, 'rStyle') : undefined;
          const rStyle = rs ? attr(rs, 'val') : undefined;
          const b = rPr ? firstChild(rPr, 'b') : undefined;
          if (!(b ? onOff(b) : styles.bold(rStyle) ?? styleBold)) para.allBold = false;
          para.maxSize = Math.max(para.maxSize, rPrSize(rPr) ?? styles.size(rStyle) ?? styleSize);
        }
        return;
      }
      case 'AlternateContent': {
        // one branch of the alternatives (text boxes in it are read by textBoxesIn)
        const branch = alternateBranch(n, () => true);
        if (branch) for (const c of branch.children) visit(c, link);
        return;
      }
      case 'hyperlink': {
        const rid = attr(n, 'id');
          // internal jumps (w:anchor only, e.g. table-of-contents entries) are plain text, as in the library
        const url = rid ? rels.get(rid)?.target : undefined;
          const start = para.text.length;
        const nBreaks = para.breaks.length;
        for (const c of n.children) visit(c);
        // a page break inside a link does not split it: the link stays before the break
        for (let k = nBreaks; k < para.breaks.length; k++) para.breaks[k] = para.text.length;
        const text = para.text.slice(start);
        if (url && text) para.links.push({ url, text, start });
        return;
      }
      default:
        for (const c of n.children) visit(c, link);
    }
  };
  for (const c of p.children) visit(c);
  if (!para.text.trim()) para.allBold = false;
  return para;
}
