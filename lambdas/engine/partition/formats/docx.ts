// DOCX partitioner (WordprocessingML read directly from the zip). Follows the open-source library's
// partition_docx: paragraph styles decide Title (a heading style through its basedOn chain, Title,
// Subtitle, an outline level) and ListItem (List* styles or numbering), other paragraphs are typed by
// the text heuristics (NarrativeText, Address, EmailAddress; short lines in body formatting are
// NarrativeText, display text stays UncategorizedText); text boxes are read as paragraphs where they
// are anchored; content imported from HTML, web archives, text or RTF (w:altChunk) is read where it
// stands; tables become Table with text_as_html, a one-cell table its content; each section's
// headers are emitted before and footers after its content (header_footer_type primary / first_page /
// even_page); page_number counts explicit and rendered page breaks when the document has any. A
// paragraph's own reading (runs, fields, math, links) is docx-paragraph.ts.
import { appendAll, makeElement, type Element, type ElementMetadata } from '../../elements';
import type { FormatPartitioner } from '../types';
import { isEmailAddress, isPossibleNarrativeText, isUpper, isUsCityStateZip, listItemText, isBulletedText } from '../classify';
import { attr, childElements, corrupt, firstChild, localName, parseXml, readZip, zipText, type DomElement } from './common';
import { tableToHtml, tableText, type TableRows } from '../table-html';
import { UnprocessableDocument } from '../../../errors';
import { DocxStyles, onOff } from './docx-styles';
import { chartsIn, textBoxesIn } from './docx-boxes';
import { chartElements } from './charts';
import { countBreaks, readTableRows, singleCell } from './docx-tables';
import { wordChildren } from './docx-content';
import { formulaText, onlyMath } from './math-latex';
import { mainPartPath, partRelationships, type Relationship } from './ooxml-package';
import { readParagraph, type Para } from './docx-paragraph';
import { altChunkElements, decodeWebArchives } from './docx-altchunk';

/** Text boxes in tables in text boxes…: content nested deeper than this is left out, with a warning. */
const MAX_NESTING = 8;

/** Names of parts a w:altChunk imports (web archive, HTML, text, RTF), read from the zip with the XML parts. */
const IMPORTED_PART = /\.(?:mht|mhtml|html?|xhtml|txt|rtf)$/i;

/** "1.", "1.2", "2.3.1", "A.", "IV." or "(a)" leading a short line, as section numbers do */
const HEADING_NUMBER = /^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVXLC]+\.|\(?[a-z]\))\s/;


class DocxReader {
  private readonly styles: DocxStyles;
  private warnedNesting = false;
  private readonly rels: Map<string, Relationship>;
  private readonly files: Map<string, Uint8Array>;
  private page = 1;
  private hasBreaks = false;
  private renderedBreaks = false;
  private readonly evenAndOdd: boolean;
  /** the main document part: word/document.xml, or what the package's relationships name */
  private readonly main: string;
  readonly out: Element[] = [];

  constructor(files: Map<string, Uint8Array>, private readonly languages?: string[], private readonly warn: (m: string) => void = () => {}) {
    this.files = files;
    this.main = mainPartPath(files, 'word/document.xml');
    this.rels = new Map(partRelationships(files, this.main).map((r) => [r.id, r]));
    this.evenAndOdd = /<w:evenAndOddHeaders(?![^>]*w:val="(?:0|false|off)")/.test(this.relatedText('settings', 'word/settings.xml') ?? '');
    this.styles = new DocxStyles(this.relatedText('styles', 'word/styles.xml'));
  }

  read(): Element[] {
    const xml = zipText(this.files, this.main);
    if (!xml) throw new UnprocessableDocument(`docx: ${this.main} is missing`);
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
    const blocks = wordChildren(body);
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
      this.emitBlocks(s.content, 0);
      if (s.sectPr) this.emitHeaderFooter(s.sectPr, 'footer');
    });
    return this.out;
  }

  /** The text of the main document's related part of a type (its relationship's target, else `conventional`). */
  private relatedText(type: string, conventional: string): string | undefined {
    const rel = [...this.rels.values()].find((r) => !r.external && r.type.endsWith(`/${type}`));
    return (rel ? zipText(this.files, rel.target) : undefined) ?? zipText(this.files, conventional);
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
      const xml = zipText(this.files, rel.target);
      if (!xml) continue;
      const root = firstChild(parseXml(xml), kind === 'header' ? 'hdr' : 'ftr');
      if (!root) continue;
      const texts: string[] = [];
      for (const block of wordChildren(root)) {
        const n = localName(block);
        if (n === 'p') texts.push(this.paragraphWithBoxes(block, 0, []));
        else if (n === 'tbl') texts.push(tableText(this.tableRows(block, [], 0)));
      }
      const text = texts.filter(Boolean).join('\n');
      if (!text) continue;
      this.out.push(makeElement(kind === 'header' ? 'Header' : 'Footer', text, { header_footer_type: hft, category_depth: 0 }));
    }
  }

  /** Body-level blocks (of the body, a text box or an unwrapped one-cell table), in order. */
  private emitBlocks(blocks: DomElement[], depth: number): void {
    for (const b of blocks) {
      const n = localName(b);
      if (n === 'p') this.emitParagraph(b, depth);
      else if (n === 'tbl') this.emitTable(b, depth);
      else if (n === 'altChunk') this.emitAltChunk(b);
    }
  }

  /** Content imported from a part of another format (docx-altchunk.ts), where the block stands. */
  private emitAltChunk(chunk: DomElement): void {
    const rel = this.rels.get(attr(chunk, 'id') ?? '');
    const data = rel && !rel.external ? this.files.get(rel.target) : undefined;
    if (!data) return;
    const md = this.meta();
    for (const el of altChunkElements(data, this.languages, this.warn)) {
      el.metadata = { ...el.metadata, ...md };
      this.out.push(el);
    }
  }

  /** True when content at `depth` is still read; past the bound it is left out with one warning. */
  private withinNesting(depth: number): boolean {
    if (depth <= MAX_NESTING) return true;
    if (!this.warnedNesting) {
      this.warnedNesting = true;
      this.warn(`docx: text boxes and tables nested more than ${MAX_NESTING} deep were left out`);
    }
    return false;
  }

  /**
   * The paragraph's fragments, then the paragraphs of the text boxes anchored in it and the charts
   * drawn in it (title and data, charts.ts), at the anchor's place.
   */
  private emitParagraph(p: DomElement, depth: number): void {
    this.emitParagraphText(readParagraph(p, this.styles, this.rels, this.renderedBreaks));
    const boxes = textBoxesIn(p);
    if (boxes.length && this.withinNesting(depth + 1)) for (const box of boxes) this.emitBlocks(wordChildren(box), depth + 1);
    for (const ref of chartsIn(p)) {
      const rel = this.rels.get(attr(ref, 'id') ?? '');
      if (!rel || rel.external) continue;
      const xml = zipText(this.files, rel.target);
      if (xml) appendAll(this.out, chartElements(xml, this.meta(), this.warn, 'docx'));
    }
  }

  private emitParagraphText(para: Para): void {
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
    if (onlyMath(text, para.mathChars)) return makeElement('Formula', formulaText(text), md);
    // a heading style (by name through basedOn, or an outline level) wins over its numbering:
    // numbered headings ("1.2 Scope") are headings
    if (para.headingDepth !== undefined) return makeElement('Title', text, { ...md, category_depth: para.headingDepth });
    // list items (numbering or a leading bullet), as the library does; a form's check box opening
    // the line is its answer and stays
    if (para.numbered || isBulletedText(text)) {
      return makeElement('ListItem', listItemText(text), { ...md, category_depth: para.ilvl });
    }
    if (/^list\b/.test(style)) return makeElement('ListItem', text, { ...md, category_depth: para.ilvl });
    if (text.length >= 2) {
      if (isUsCityStateZip(text)) return makeElement('Address', text, md);
      if (isEmailAddress(text)) return makeElement('EmailAddress', text, md);
      if (isPossibleNarrativeText(text, { languages: this.languages })) return makeElement('NarrativeText', text, md);
    }
    // a paragraph in body formatting is body text however short; display text (bold, large, capitals,
    // a heading-like number) without a heading style stays uncategorized, as the library leaves it
    if (this.isPlainBody(para, text)) return makeElement('NarrativeText', text, md);
    return makeElement('UncategorizedText', text, md);
  }

  private isPlainBody(para: Para, text: string): boolean {
    if (!/\p{L}/u.test(text) || para.allBold || para.maxSize > this.styles.bodySize) return false;
    if (isUpper(text) && text.replace(/[^\p{L}]/gu, '').length > 1) return false;
    return !HEADING_NUMBER.test(text);
  }

  private tableRows(tbl: DomElement, emph: { text: string; tag: string }[], depth: number): TableRows {
    return readTableRows(tbl, (tc) => this.cellText(tc, emph, depth));
  }

  /** Text of a cell or a text box: its paragraphs (with their own boxes) and nested tables, one per line. */
  private cellText(tc: DomElement, emph: { text: string; tag: string }[], depth: number): string {
    const parts: string[] = [];
    for (const c of wordChildren(tc)) {
      const n = localName(c);
      if (n === 'p') {
        parts.push(this.paragraphWithBoxes(c, depth, emph));
      } else if (n === 'tbl') {
        if (this.withinNesting(depth + 1)) parts.push(tableText(this.tableRows(c, emph, depth + 1)));
      }
    }
    return parts.filter(Boolean).join('\n');
  }

  /** A paragraph's text followed by the text of the boxes anchored in it, one per line. */
  private paragraphWithBoxes(p: DomElement, depth: number, emph: { text: string; tag: string }[]): string {
    const para = readParagraph(p, this.styles, this.rels, this.renderedBreaks);
    appendAll(emph, para.emph.map((e) => ({ text: e.text.trim(), tag: e.tag })));
    const parts = [para.text.trim()];
    const boxes = textBoxesIn(p);
    if (boxes.length && this.withinNesting(depth + 1)) for (const box of boxes) parts.push(this.cellText(box, emph, depth + 1));
    return parts.filter(Boolean).join('\n');
  }

  private emitTable(tbl: DomElement, depth: number): void {
    // a table of one cell is a frame around its content (a box, a note), not tabular data: its
    // paragraphs, lists and tables are read as if they stood in the body
    const single = singleCell(tbl);
    if (single && this.withinNesting(depth + 1)) {
      this.emitBlocks(wordChildren(single), depth + 1);
      return;
    }
    const emph: { text: string; tag: string }[] = [];
    const rows = this.tableRows(tbl, emph, depth);
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

export const partitionDocx: FormatPartitioner = async (data, ctx) => {
  // besides the XML parts, the parts of other formats a document imports (w:altChunk) anywhere in the package
  const files = readZip(data, 'docx', (n) => n === '_rels/.rels' || (n.startsWith('word/') && (n.endsWith('.xml') || n.endsWith('.rels'))) || IMPORTED_PART.test(n));
  if (!files.has(mainPartPath(files, 'word/document.xml'))) throw new UnprocessableDocument('docx: word/document.xml is missing (not a Word document?)');
  await decodeWebArchives(files, (n) => IMPORTED_PART.test(n));
  try {
    return new DocxReader(files, ctx.options.languages, (m) => ctx.warn(m)).read();
  } catch (err) {
    return corrupt('docx', err);
  }
};
