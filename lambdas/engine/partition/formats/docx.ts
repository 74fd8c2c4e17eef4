// DOCX partitioner (WordprocessingML read directly from the zip). Follows the open-source library's
// partition_docx: paragraph styles decide Title (Heading n, Title, Subtitle) and ListItem (List*
// styles or numbering), other paragraphs are typed by the text heuristics (NarrativeText, Address,
// EmailAddress, else UncategorizedText); tables become Table with text_as_html; each section's
// headers are emitted before and footers after its content (header_footer_type primary / first_page /
// even_page); page_number counts explicit and rendered page breaks when the document has any.
import { appendAll, makeElement, type Element, type ElementMetadata } from '../../elements';
import type { FormatPartitioner } from '../types';
import { isEmailAddress, isPossibleNarrativeText, isUsCityStateZip, stripBullet, isBulletedText } from '../classify';
import {
  assignHeadingParents, attr, childElements, corrupt, firstChild, isTag, localName, parseXml, readZip,
  zipText, type DomElement, type DomNode,
} from './common';
import { clampSpan, tableToHtml, tableText, type TableCell, type TableRows } from '../table-html';
import { UnprocessableDocument } from '../../../domain/errors';

interface Rel {
  target: string;
  external: boolean;
}

function readRels(xml: string | undefined): Map<string, Rel> {
  const rels = new Map<string, Rel>();
  if (!xml) return rels;
  for (const r of childElements(firstChild(parseXml(xml), 'Relationships') ?? parseXml(''), 'Relationship')) {
    const id = r.attribs['Id'];
    const target = r.attribs['Target'];
    if (id && target !== undefined) rels.set(id, { target, external: r.attribs['TargetMode'] === 'External' });
  }
  return rels;
}

function onOff(el: DomElement | undefined): boolean {
  if (!el) return false;
  const v = attr(el, 'val');
  return v === undefined || !['0', 'false', 'off', 'none'].includes(v.toLowerCase());
}

const SKIP_IN_PARAGRAPH = new Set(['pPr', 'rPr', 'delText', 'instrText', 'drawing', 'pict', 'AlternateContent', 'object', 'footnoteReference', 'endnoteReference', 'commentReference', 'del', 'moveFrom']);

interface Para {
  text: string;
  styleName: string;
  numbered: boolean;
  ilvl: number;
  links: { url: string; text: string; start: number }[];
  emph: { text: string; tag: string; start: number }[];
  /** text offsets of page breaks (rendered or explicit) inside the paragraph */
  breaks: number[];
  /** characters of text that came from Office Math (m:oMath) */
  mathChars: number;
}

class DocxReader {
  private readonly styles = new Map<string, string>();
  private readonly rels: Map<string, Rel>;
  private readonly files: Map<string, Uint8Array>;
  private page = 1;
  private hasBreaks = false;
  private renderedBreaks = false;
  private readonly evenAndOdd: boolean;
  readonly out: Element[] = [];

  constructor(files: Map<string, Uint8Array>, private readonly languages?: string[]) {
    this.files = files;
    this.rels = readRels(zipText(files, 'word/_rels/document.xml.rels'));
    this.evenAndOdd = /<w:evenAndOddHeaders(?![^>]*w:val="(?:0|false|off)")/.test(zipText(files, 'word/settings.xml') ?? '');
    const stylesXml = zipText(files, 'word/styles.xml');
    if (stylesXml) {
      for (const s of parseXmlAll(stylesXml, 'style')) {
        const id = attr(s, 'styleId');
        const name = firstChild(s, 'name');
        if (id && name) this.styles.set(id, (attr(name, 'val') ?? id).toLowerCase());
      }
    }
  }

  read(): Element[] {
    const xml = zipText(this.files, 'word/document.xml');
    if (!xml) throw new UnprocessableDocument('docx: word/document.xml is missing');
    // Word records where it rendered page breaks; when it did, those alone count (an explicit break
    // is followed by a rendered one). Documents never rendered by Word fall back to explicit breaks.
    this.renderedBreaks = xml.includes('<w:lastRenderedPageBreak');
    this.hasBreaks = this.renderedBreaks || /<w:br\b[^>]*w:type="page"/.test(xml);
    const doc = parseXml(xml);
    const body = firstChild(firstChild(doc, 'document') ?? doc, 'body');
    if (!body) throw new UnprocessableDocument('docx: the document has no body');
    // split the body into sections (a paragraph's pPr/sectPr ends a section)
    let section: DomElement[] = [];
    const sections: { content: DomElement[]; sectPr?: DomElement }[] = [];
    const blocks: DomElement[] = [];
    const flattenSdt = (el: DomElement): void => {
      for (const c of childElements(el)) {
        const n = localName(c);
        if (n === 'sdt') {
          const content = firstChild(c, 'sdtContent');
          if (content) flattenSdt(content);
        } else blocks.push(c);
      }
    };
    flattenSdt(body);
    for (const b of blocks) {
      const n = localName(b);
      if (n === 'sectPr') {
        sections.push({ content: section, sectPr: b });
        section = [];
        continue;
      }
      section.push(b);
      if (n === 'p') {
        const sp = firstChild(firstChild(b, 'pPr') ?? b, 'sectPr');
        if (sp && firstChild(b, 'pPr')) {
          sections.push({ content: section, sectPr: sp });
          section = [];
        }
      }
    }
    if (section.length) sections.push({ content: section });
    sections.forEach((s, idx) => {
      // odd/even-page section starts may need a second page break besides the rendered one
      const typeEl = s.sectPr ? firstChild(s.sectPr, 'type') : undefined;
      const start = typeEl ? attr(typeEl, 'val') : undefined;
      if (start === 'evenPage' && this.page % 2 === 0) this.pageBreak();
      if (start === 'oddPage' && idx > 0 && this.page % 2 === 1) this.pageBreak();
      if (s.sectPr) this.emitHeaderFooter(s.sectPr, 'header');
      for (const b of s.content) {
        const n = localName(b);
        if (n === 'p') this.emitParagraph(b);
        else if (n === 'tbl') this.emitTable(b);
      }
      if (s.sectPr) this.emitHeaderFooter(s.sectPr, 'footer');
    });
    return assignHeadingParents(this.out);
  }

  private meta(): ElementMetadata {
    return this.hasBreaks ? { page_number: this.page } : {};
  }

  /** PageBreak elements (includePageBreaks) are inserted by the pipeline where page_number changes. */
  private pageBreak(): void {
    if (this.hasBreaks) this.page++;
  }

  /**
   * Header/Footer elements of a section: primary, then first-page (when the section has w:titlePg)
   * and even-page (when settings enable w:evenAndOddHeaders). A section without its own reference
   * is linked to the previous one and emits nothing. Text: paragraphs, and tables as their cell
   * texts joined by spaces, one per line.
   */
  private emitHeaderFooter(sectPr: DomElement, kind: 'header' | 'footer'): void {
    const refs = new Map<string, DomElement>();
    for (const ref of childElements(sectPr, `${kind}Reference`)) refs.set(attr(ref, 'type') ?? 'default', ref);
    const wanted: [string, string][] = [['default', 'primary']];
    if (firstChild(sectPr, 'titlePg') && onOff(firstChild(sectPr, 'titlePg'))) wanted.push(['first', 'first_page']);
    if (this.evenAndOdd) wanted.push(['even', 'even_page']);
    for (const [type, hft] of wanted) {
      const ref = refs.get(type);
      const rid = ref ? attr(ref, 'id') : undefined;
      const rel = rid ? this.rels.get(rid) : undefined;
      if (!rel) continue;
      const path = rel.target.startsWith('/') ? rel.target.slice(1) : `word/${rel.target}`;
      const xml = zipText(this.files, path);
      if (!xml) continue;
      const root = firstChild(parseXml(xml), kind === 'header' ? 'hdr' : 'ftr');
      if (!root) continue;
      const texts: string[] = [];
      for (const block of childElements(root)) {
        const n = localName(block);
        if (n === 'p') texts.push(this.paragraph(block).text.trim());
        else if (n === 'tbl') texts.push(tableText(this.tableRows(block)));
        else if (n === 'sdt') {
          const content = firstChild(block, 'sdtContent');
          if (content) for (const p of childElements(content, 'p')) texts.push(this.paragraph(p).text.trim());
        }
      }
      const text = texts.filter(Boolean).join('\n');
      if (!text) continue;
      this.out.push(makeElement(kind === 'header' ? 'Header' : 'Footer', text, { header_footer_type: hft, category_depth: 0 }));
    }
  }

  private paragraph(p: DomElement): Para {
    const para: Para = { text: '', styleName: '', numbered: false, ilvl: 0, links: [], emph: [], breaks: [], mathChars: 0 };
    const pPr = firstChild(p, 'pPr');
    if (pPr) {
      const ps = firstChild(pPr, 'pStyle');
      const sid = ps ? attr(ps, 'val') : undefined;
      if (sid) para.styleName = this.styles.get(sid) ?? sid.toLowerCase();
      const numPr = firstChild(pPr, 'numPr');
      if (numPr) {
        const numId = firstChild(numPr, 'numId');
        if (numId && attr(numId, 'val') !== '0') para.numbered = true;
        const ilvl = firstChild(numPr, 'ilvl');
        para.ilvl = ilvl ? Number(attr(ilvl, 'val') ?? 0) || 0 : 0;
      }
    }
    const visit = (n: DomNode, link?: { url: string; start: number }): void => {
      if (!isTag(n)) return;
      const name = localName(n);
      if (SKIP_IN_PARAGRAPH.has(name)) return;
      switch (name) {
        case 't':
          para.text += n.children.map((c) => (c.type === 'text' ? c.data : '')).join('');
          return;
        case 'oMath':
        case 'oMathPara': {
          const start = para.text.length;
          for (const c of n.children) visit(c, link);
          para.mathChars += para.text.slice(start).replace(/\s/g, '').length;
          return;
        }
        case 'tab':
        case 'ptab':
          para.text += '\t';
          return;
        case 'br':
          if (attr(n, 'type') === 'page') {
            if (!this.renderedBreaks) para.breaks.push(para.text.length);
          } else para.text += '\n';
          return;
        case 'cr':
          para.text += '\n';
          return;
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
          return;
        }
        case 'hyperlink': {
          const rid = attr(n, 'id');
          const anchor = attr(n, 'anchor');
          // internal jumps (w:anchor only, e.g. table-of-contents entries) are plain text, as in the library
          const url = rid ? this.rels.get(rid)?.target : undefined;
          void anchor;
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
    return para;
  }

  private emitParagraph(p: DomElement): void {
    const para = this.paragraph(p);
    if (!para.breaks.length) {
      this.emitFragment(para, 0, para.text.length);
      return;
    }
    // a page break inside a paragraph splits it: the text before stays on the previous page
    let from = 0;
    for (const at of para.breaks) {
      this.emitFragment(para, from, at);
      this.pageBreak();
      from = at;
    }
    this.emitFragment(para, from, para.text.length);
  }

  private emitFragment(para: Para, from: number, to: number): void {
    const raw = para.text.slice(from, to);
    const text = raw.trim();
    if (!text) return;
    const lead = raw.length - raw.trimStart().length;
    const md: ElementMetadata = this.meta();
    const links = para.links.filter((l) => l.start >= from && l.start < to);
    if (links.length) {
      md.link_urls = links.map((l) => l.url);
      md.link_texts = links.map((l) => l.text);
      md.link_start_indexes = links.map((l) => Math.max(0, l.start - from - lead));
    }
    const emph = para.emph.filter((e) => e.start >= from && e.start < to);
    if (emph.length) {
      md.emphasized_text_contents = emph.map((e) => e.text.trim());
      md.emphasized_text_tags = emph.map((e) => e.tag);
    }
    this.out.push(this.classify(para, text, md));
  }

  private classify(para: Para, text: string, md: ElementMetadata): Element {
    const style = para.styleName;
    // a paragraph that is only Office Math is a formula
    if (para.mathChars > 0 && para.mathChars >= text.replace(/\s/g, '').length) return makeElement('Formula', text, md);
    // list items first (numbering or a leading bullet), as the library does
    if (para.numbered || isBulletedText(text)) {
      const clean = stripBullet(text);
      return makeElement('ListItem', clean || text, { ...md, category_depth: para.ilvl });
    }
    const heading = /^heading\s*(\d)$/.exec(style);
    if (heading) return makeElement('Title', text, { ...md, category_depth: Number(heading[1]) - 1 });
    if (style === 'title' || style === 'toc heading') return makeElement('Title', text, { ...md, category_depth: 0 });
    if (style === 'subtitle') return makeElement('Title', text, { ...md, category_depth: 1 });
    if (/^list\b/.test(style)) {
      // "List Bullet 2" -> depth 1, as the library derives it from the style name
      const n = /\s(\d+)$/.exec(style);
      return makeElement('ListItem', text, { ...md, category_depth: n ? Number(n[1]) - 1 : para.ilvl });
    }
    if (text.length >= 2) {
      if (isUsCityStateZip(text)) return makeElement('Address', text, md);
      if (isEmailAddress(text)) return makeElement('EmailAddress', text, md);
      if (isPossibleNarrativeText(text, { languages: this.languages })) return makeElement('NarrativeText', text, md);
    }
    return makeElement('UncategorizedText', text, md);
  }

  /**
   * The table's anchored cells: w:gridSpan gives colspan, a w:vMerge="restart" cell grows a rowspan
   * over the w:vMerge (continue) cells below it in the same grid column, w:gridBefore/w:gridAfter
   * leave empty grid columns. A table nested in a cell is read into that cell's text, row by row.
   */
  private tableRows(tbl: DomElement, emph: { text: string; tag: string }[] = []): TableRows {
    const rows: TableRows = [];
    // the anchor cell covering each grid column in the row above (for vertical merges)
    let above = new Map<number, TableCell>();
    for (const tr of childElements(tbl, 'tr')) {
      const row: TableCell[] = [];
      const here = new Map<number, TableCell>();
      const trPr = firstChild(tr, 'trPr');
      const gridVal = (name: string): number => {
        const el = trPr ? firstChild(trPr, name) : undefined;
        return el ? clampSpan(attr(el, 'val')) : 0;
      };
      let col = gridVal('gridBefore');
      if (col > 0) row.push({ text: '', colspan: col, rowspan: 1 });
      for (const tc of cellsOf(tr)) {
        const tcPr = firstChild(tc, 'tcPr');
        const spanEl = tcPr ? firstChild(tcPr, 'gridSpan') : undefined;
        const colspan = spanEl ? clampSpan(attr(spanEl, 'val')) : 1;
        const vMerge = tcPr ? firstChild(tcPr, 'vMerge') : undefined;
        const continued = vMerge !== undefined && (attr(vMerge, 'val') ?? 'continue') === 'continue';
        const anchor = continued ? above.get(col) : undefined;
        if (anchor) {
          anchor.rowspan = (anchor.rowspan ?? 1) + 1;
          for (let k = 0; k < colspan; k++) here.set(col + k, anchor);
        } else {
          const cell: TableCell = { text: this.cellText(tc, emph), colspan, rowspan: 1 };
          row.push(cell);
          for (let k = 0; k < colspan; k++) here.set(col + k, cell);
        }
        col += colspan;
      }
      const after = gridVal('gridAfter');
      if (after > 0) row.push({ text: '', colspan: after, rowspan: 1 });
      rows.push(row);
      above = here;
    }
    return rows;
  }

  private cellText(tc: DomElement, emph: { text: string; tag: string }[]): string {
    const parts: string[] = [];
    for (const c of childElements(tc)) {
      const n = localName(c);
      if (n === 'p') {
        const para = this.paragraph(c);
        parts.push(para.text.trim());
        appendAll(emph, para.emph.map((e) => ({ text: e.text.trim(), tag: e.tag })));
      } else if (n === 'tbl') {
        parts.push(tableText(this.tableRows(c, emph)));
      } else if (n === 'sdt') {
        const content = firstChild(c, 'sdtContent');
        if (content) for (const p of childElements(content, 'p')) parts.push(this.paragraph(p).text.trim());
      }
    }
    return parts.filter(Boolean).join('\n');
  }

  private emitTable(tbl: DomElement): void {
    const emph: { text: string; tag: string }[] = [];
    const rows = this.tableRows(tbl, emph);
    const text = tableText(rows);
    if (!text) return;
    const emphMd: ElementMetadata = emph.length
      ? { emphasized_text_contents: emph.map((e) => e.text), emphasized_text_tags: emph.map((e) => e.tag) }
      : {};
    this.out.push(makeElement('Table', text, { ...this.meta(), text_as_html: tableToHtml(rows), ...emphMd }));
    // rendered page breaks inside table cells still advance the page count
    const inner = countBreaks(tbl);
    for (let i = 0; i < inner; i++) this.pageBreak();
  }
}

function cellsOf(tr: DomElement): DomElement[] {
  const out: DomElement[] = [];
  for (const c of childElements(tr)) {
    const n = localName(c);
    if (n === 'tc') out.push(c);
    else if (n === 'sdt') {
      const content = firstChild(c, 'sdtContent');
      if (content) appendAll(out, childElements(content, 'tc'));
    }
  }
  return out;
}

function countBreaks(el: DomElement): number {
  let n = 0;
  const stack: DomNode[] = [...el.children];
  while (stack.length) {
    const c = stack.pop()!;
    if (!isTag(c)) continue;
    const name = localName(c);
    if (name === 'lastRenderedPageBreak' || (name === 'br' && attr(c, 'type') === 'page')) n++;
    appendAll(stack, c.children);
  }
  return n;
}

function parseXmlAll(xml: string, name: string): DomElement[] {
  const doc = parseXml(xml);
  const out: DomElement[] = [];
  for (const c of doc.children) if (isTag(c)) appendAll(out, parseXmlAllIn(c, name));
  return out;
}

/** Descendants named `name`, not descending into matches (paragraphs inside paragraphs are rare). */
function parseXmlAllIn(root: DomElement, name: string): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isTag(n)) continue;
    if (localName(n) === name) {
      out.push(n);
      continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

export const partitionDocx: FormatPartitioner = async (data, ctx) => {
  const files = readZip(data, 'docx', (n) => n.startsWith('word/') && (n.endsWith('.xml') || n.endsWith('.rels')));
  if (!files.has('word/document.xml')) throw new UnprocessableDocument('docx: word/document.xml is missing (not a Word document?)');
  try {
    return new DocxReader(files, ctx.options.languages).read();
  } catch (err) {
    return corrupt('docx', err);
  }
};
