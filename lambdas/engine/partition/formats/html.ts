// HTML partitioner (also the back end of md, rst, org, epub and e-mail bodies). Walks the DOM
// (htmlparser2): headings become Title with category_depth (h1 0 ... h6 5), list items ListItem with
// category_depth the number of lists around them (as the library counts: 1 in a top-level list), <pre>
// CodeSnippet, tables Table with text_as_html, <img> with alt text Image (image_url or image_base64), other
// blocks are classified by the text heuristics. Links and b/strong/i/em emphasis are recorded;
// script/style/nav/head are dropped. parent_id is left to the pipeline's hierarchy step.
import type { Document } from 'domhandler';
import { appendAll, makeElement, type Element, type ElementMetadata } from '../../elements';
import type { FormatPartitioner } from '../types';
import {
  isBulletedText, isEmailAddress, isPossibleNarrativeText, isPossibleTitle, isUsCityStateZip, stripBullet,
} from '../classify';
import {
  decodeWith, detectAndDecode, encodingExists, isTag, normalizeSpace, parseHtml,
  type DomElement, type DomNode,
} from './common';
import { BadRequest } from '../../../errors';
import { textToElements } from './text';
import { isDisplayMath, mathmlToLatex } from './mathml';
import { formulaText, inlineMath, onlyMath, withoutDisplayStyle } from './math-latex';
import { wordListLevel } from './html-word-lists';
import { dropped, shownText } from './html-dom';
import { footLast, isLineNumberCell, readTable, tableKind } from './html-tables';
import { capExceeded, MAX_HTML_NESTING, MAX_XML_NODES } from '../limits';

const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'blockquote', 'ul', 'ol', 'dl', 'dt',
  'dd', 'form', 'fieldset', 'figure', 'figcaption', 'address', 'center', 'hr', 'body', 'html', 'tr', 'td', 'th',
  'tbody', 'thead', 'tfoot', 'caption', 'details', 'summary', 'legend', 'menu', 'dir', 'hgroup',
]);
const TABLE_PARTS = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);
/** Lists (<menu> and the obsolete <dir> are lists of items as <ul> is). */
const LISTS = new Set(['ul', 'ol', 'menu', 'dir']);
/** Blocks whose lines, set apart by <br>, are one paragraph. */
const PARAGRAPH = new Set(['p', 'address']);
const HEADING: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const EMPHASIS = new Set(['b', 'strong', 'i', 'em']);

export interface HtmlOptions {
  /**
   * How a plain block that is not narrative text is typed: 'title' applies the library's
   * is_possible_title (0.14-era HTML partitioner), 'uncategorized' follows the newer partitioner
   * where only headings are titles (the default).
   */
  shortText?: 'title' | 'uncategorized';
  /**
   * The category_depth of a top-level list's items: 1 (the default) as the library's HTML partitioner
   * counts the lists around an item; 0 as its Word partitioner counts list levels, for a format the
   * library reads by converting it to Word (ODT).
   */
  topListDepth?: 0 | 1;
  /** Extra metadata merged into every element (e.g. page_number for an epub chapter). */
  metadata?: ElementMetadata;
  /** Receives a warning when the markup is read as plain text (pathological nesting). */
  warn?: (message: string) => void;
  languages?: string[];
}

type Kind = 'text' | 'title' | 'list' | 'code';
interface Ctx {
  kind: Kind;
  level: number;
  /** Lists (ul/ol) around this point. */
  listDepth: number;
  /** The list item this point is in: whether its ListItem is out (its text after that is a paragraph's). */
  item?: { emitted: boolean };
}

class HtmlWalker {
  readonly out: Element[] = [];
  private buf = '';
  private links: { url: string; start: number; end: number }[] = [];
  private emph: { tag: string; start: number; end: number }[] = [];
  private stack: Ctx[] = [{ kind: 'text', level: 0, listDepth: 0 }];
  private inPre = 0;
  /** Paragraphs (PARAGRAPH) open around this point. */
  private inParagraph = 0;
  /** Links and emphasis open around this point. */
  private inlineDepth = 0;
  /** Where the buffered text's last <br> ended (-1: none yet). */
  private lastBreak = -1;
  /** Characters of the buffered text that are formulas (with their $). */
  private mathChars = 0;
  /** The TeX of the formula just read: an image of it after it (a fallback rendering) is no Image of its own. */
  private lastMath: string[] = [];
  /** Images met inside the buffered text: they follow its element. */
  private inlineImages: Element[] = [];

  constructor(private readonly opts: HtmlOptions) {}

  private get ctx(): Ctx {
    return this.stack[this.stack.length - 1]!;
  }

  walk(nodes: DomNode[]): void {
    for (const n of nodes) this.visit(n);
  }

  private visit(n: DomNode): void {
    if (n.type === 'text') {
      this.buf += shownText(n.data);
      if (/\S/.test(n.data)) this.lastMath = [];
      return;
    }
    if (n.type === 'cdata') {
      this.walk(n.children);
      return;
    }
    if (!isTag(n)) return;
    const name = n.name.toLowerCase();
    if (dropped(n, name)) return;
    if (name === 'br') {
      // Text laid out with line breaks: outside a paragraph (a <div>'s or the body's lines, a mail's or a
      // signature's) each line is an element of its own, as both the library and docling read them; in a
      // <p> only a blank line (a second break with nothing between) ends it. Never inside a link or
      // emphasis, whose offsets run on, nor in a list item, heading or code.
      const blankLine = this.lastBreak >= 0 && !/\S/.test(this.buf.slice(this.lastBreak));
      if ((blankLine || !this.inParagraph) && this.ctx.kind === 'text' && !this.inPre && !this.inlineDepth) {
        this.flush();
        return;
      }
      this.buf += '\n';
      this.lastBreak = this.buf.length;
      return;
    }
    if (name === 'table') {
      this.flush();
      const kind = tableKind(n, dropped);
      if (kind === 'data') this.emitTable(n);
      else this.walkLayoutTable(n, kind === 'code');
      return;
    }
    const level = HEADING[name];
    if (level !== undefined) {
      this.block(n, { ...this.ctx, kind: 'title', level });
      return;
    }
    if (name === 'li') {
      this.block(n, { ...this.ctx, kind: 'list', item: { emitted: false } });
      return;
    }
    const wordLevel = name === 'p' && this.ctx.kind === 'text' ? wordListLevel(n) : undefined;
    if (wordLevel) {
      this.block(n, { ...this.ctx, kind: 'list', listDepth: this.ctx.listDepth + wordLevel, item: { emitted: false } });
      return;
    }
    if (LISTS.has(name)) {
      this.flush();
      this.stack.push({ ...this.ctx, kind: 'text', listDepth: this.ctx.listDepth + 1 });
      this.walk(n.children);
      this.flush();
      this.stack.pop();
      return;
    }
    if (name === 'math') {
      this.emitMath(n);
      return;
    }
    if (name === 'img') {
      this.emitImage(n);
      return;
    }
    if (name === 'pre') {
      this.inPre++;
      this.block(n, { ...this.ctx, kind: 'code' });
      this.inPre--;
      return;
    }
    if (BLOCK.has(name)) {
      // the paragraphs that open a list item are that one item (a loose Markdown list's <li><p>..</p><p>..</p>)
      if (this.ctx.kind === 'list' && !this.ctx.item?.emitted) {
        this.buf += ' ';
        this.walk(n.children);
        this.buf += ' ';
        return;
      }
      const paragraph = PARAGRAPH.has(name);
      this.flush();
      if (paragraph) this.inParagraph++;
      this.walk(n.children);
      if (paragraph) this.inParagraph--;
      this.flush();
      return;
    }
    if (name === 'a' || EMPHASIS.has(name)) {
      const start = this.buf.length;
      this.inlineDepth++;
      this.walk(n.children);
      this.inlineDepth--;
      const end = this.buf.length;
      if (name === 'a') {
        const href = n.attribs['href'];
        if (href !== undefined && end >= start) this.links.push({ url: href, start, end });
      } else if (end > start) {
        this.emph.push({ tag: name, start, end });
      }
      return;
    }
    this.walk(n.children);
  }

  /** A table that holds no data, read as the blocks in its cells, row by row; a code listing without its line numbers. */
  private walkLayoutTable(el: DomElement, code: boolean): void {
    for (const c of footLast(el.children)) {
      const name = isTag(c) ? c.name.toLowerCase() : '';
      if (!isTag(c) || !TABLE_PARTS.has(name) || dropped(c, name)) this.visit(c);
      else if (name !== 'td' && name !== 'th') this.walkLayoutTable(c, code);
      else if (!(code && isLineNumberCell(c))) this.block(c, this.ctx);
    }
  }

  private block(n: DomElement, ctx: Ctx): void {
    this.flush();
    this.stack.push(ctx);
    this.walk(n.children);
    this.flush();
    this.stack.pop();
  }

  /** Emits the buffered inline text as one element, then the images set inside that text. */
  flush(): void {
    this.emitText();
    if (this.inlineImages.length) {
      appendAll(this.out, this.inlineImages);
      this.inlineImages = [];
    }
  }

  private emitText(): void {
    const raw = this.buf;
    const links = this.links;
    const emph = this.emph;
    const mathChars = this.mathChars;
    this.buf = '';
    this.lastBreak = -1;
    this.links = [];
    this.emph = [];
    this.mathChars = 0;
    const ctx = this.ctx;
    const text = ctx.kind === 'code' ? raw.replace(/^\n+/, '').replace(/\s+$/, '') : normalizeSpace(raw);
    if (!text || !/\S/.test(text)) return;
    if (ctx.kind === 'text' && onlyMath(text, mathChars)) {
      this.out.push(makeElement('Formula', formulaText(text), { ...this.opts.metadata }));
      return;
    }
    if (isBulletedText(text) && !stripBullet(text)) return; // a lone bullet character
    const md: ElementMetadata = { ...this.opts.metadata };
    if (links.length) {
      md.link_urls = links.map((l) => l.url);
      md.link_texts = links.map((l) => normalizeSpace(raw.slice(l.start, l.end)));
      const prefixes = spacedPrefixes(raw, links.map((l) => l.start));
      md.link_start_indexes = links.map((l, k) => {
        const before = prefixes[k]!;
        const linkLead = SPACE.test(raw[l.start] ?? '') && before.length && !before.endsWithSpace ? 1 : 0;
        return Math.min(text.length, before.length + linkLead);
      });
    }
    const emphasized = emph.map((e) => ({ tag: e.tag, text: normalizeSpace(raw.slice(e.start, e.end)) })).filter((e) => e.text);
    if (emphasized.length) {
      md.emphasized_text_contents = emphasized.map((e) => e.text);
      md.emphasized_text_tags = emphasized.map((e) => e.tag);
    }
    let el: Element;
    // one ListItem per item, as a reader sees one bullet: text of the item after what ended its ListItem
    // (a nested list, a code block, a table) is typed as any paragraph
    const kind = ctx.kind === 'list' && ctx.item?.emitted ? 'text' : ctx.kind;
    switch (kind) {
      case 'title':
        el = makeElement('Title', text, { ...md, category_depth: ctx.level - 1 });
        break;
      case 'list':
        el = makeElement('ListItem', stripBullet(text) || text, { ...md, category_depth: ctx.listDepth - 1 + (this.opts.topListDepth ?? 1) });
        ctx.item!.emitted = true;
        break;
      case 'code':
        el = makeElement('CodeSnippet', text, md);
        break;
      default: {
        const type = this.classify(text);
        // a Title or ListItem outside headings and lists is at depth 0, as the library sets it
        if (type === 'Title' || type === 'ListItem') md.category_depth = 0;
        el = makeElement(type, isBulletedText(text) ? stripBullet(text) || text : text, md);
      }
    }
    this.out.push(el);
  }

  /**
   * A <math> formula as LaTeX: inline, set off by $ in its paragraph's text; set as a display (block)
   * formula, a Formula of its own.
   */
  private emitMath(math: DomElement): void {
    const latex = mathmlToLatex(math);
    if (!latex) return;
    if (isDisplayMath(math) && this.ctx.kind === 'text') {
      this.flush();
      this.out.push(makeElement('Formula', latex, { ...this.opts.metadata }));
    } else {
      const inline = inlineMath(latex);
      this.buf += inline;
      this.mathChars += inline.length;
    }
    this.lastMath = [latex, normalizeSpace(math.attribs['alttext'] ?? '')].filter(Boolean);
  }

  /**
   * An <img> with a source and alt text ends the text before it and is an Image (its alt text, URL or
   * inline data), as the library's ImageBlock. Unlike the library, an image without alt text makes
   * nothing: alt="" marks an image decorative, and unlabelled ones are mostly spacers and tracking
   * pixels, elements without text that only add noise.
   */
  private emitImage(img: DomElement): void {
    const src = (img.attribs['data-src'] ?? '').trim() || (img.attribs['src'] ?? '').trim();
    const alt = normalizeSpace(img.attribs['alt'] ?? '');
    if (!src || !alt) return;
    // a formula's picture right after the formula itself (a fallback for readers without MathML)
    if (this.lastMath.some((t) => t === alt || t === withoutDisplayStyle(alt))) return;
    const inline = /^data:(image\/[^;,]+);base64,(.*)$/s.exec(src);
    const md: ElementMetadata = { ...this.opts.metadata };
    if (inline) {
      md.image_mime_type = inline[1];
      md.image_base64 = inline[2];
    } else {
      md.image_url = src;
    }
    const image = makeElement('Image', alt, md);
    // set inside running text (an icon, a badge, a markdown image mid-sentence) it follows its
    // paragraph, which stays whole; on its own, or before any text, it stands where it is
    if (/\S/.test(this.buf)) this.inlineImages.push(image);
    else {
      this.flush();
      this.out.push(image);
    }
  }

  private classify(text: string): string {
    if (isBulletedText(text) && stripBullet(text)) return 'ListItem';
    if (isUsCityStateZip(text)) return 'Address';
    if (isEmailAddress(text)) return 'EmailAddress';
    const langs = { languages: this.opts.languages };
    if (isPossibleNarrativeText(text, langs)) return 'NarrativeText';
    if (this.opts.shortText === 'title' && isPossibleTitle(text, langs)) return 'Title';
    return 'UncategorizedText';
  }

  private emitTable(table: DomElement): void {
    const read = readTable(table);
    if (read) this.out.push(makeElement('Table', read.text, { ...this.opts.metadata, text_as_html: read.html }));
  }
}

const SPACE = /^[ \t\n\r\f\v]$/;

/**
 * For each offset into `raw`, the text before it as normalizeSpace lays it out (runs of white space one
 * space, leading space dropped, a trailing one kept): its length and whether it ends in that space.
 * One pass over the text, however many offsets (a block of thousands of links stays linear).
 */
function spacedPrefixes(raw: string, offsets: number[]): { length: number; endsWithSpace: boolean }[] {
  const order = offsets.map((_, k) => k).sort((a, b) => offsets[a]! - offsets[b]!);
  const out: { length: number; endsWithSpace: boolean }[] = new Array(offsets.length);
  let length = 0;
  let inSpace = false;
  let i = 0;
  for (const k of order) {
    for (const end = Math.min(offsets[k]!, raw.length); i < end; i++) {
      if (SPACE.test(raw[i]!)) {
        if (length && !inSpace) length++;
        inSpace = true;
      } else {
        length++;
        inSpace = false;
      }
    }
    out[k] = { length, endsWithSpace: inSpace && length > 0 };
  }
  return out;
}

/** Partitions a parsed HTML document. */
export function htmlDomToElements(doc: Document | DomElement, opts: HtmlOptions = {}): Element[] {
  const w = new HtmlWalker(opts);
  w.walk(doc.children);
  w.flush();
  return w.out;
}

export function htmlToElements(html: string, opts: HtmlOptions = {}): Element[] {
  if (tagCount(html, MAX_XML_NODES) > MAX_XML_NODES) throw capExceeded('HTML: the number of elements', MAX_XML_NODES);
  if (nestingDepth(html, MAX_HTML_NESTING) > MAX_HTML_NESTING) {
    opts.warn?.(`HTML nesting deeper than ${MAX_HTML_NESTING} levels: read as plain text`);
    return textToElements(htmlToPlainText(html), opts.languages);
  }
  return htmlDomToElements(parseHtml(html), opts);
}

/** Charset from a BOM, then a <meta charset> / http-equiv declaration in the first 4 KB. */
export function decodeHtml(data: Uint8Array, encoding?: string): string {
  if (encoding && !/^utf-?8$/i.test(encoding.trim())) {
    if (!encodingExists(encoding)) throw new BadRequest(`unsupported encoding: ${encoding}`);
    return decodeWith(data, encoding);
  }
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 4096)).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([-\w:.]+)/i.exec(head);
  const declared = m?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8' && encodingExists(declared)) {
    // a document that is valid UTF-8 despite a legacy declaration is read as UTF-8
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      return decodeWith(data, declared);
    }
  }
  return detectAndDecode(data);
}

// Tags that never nest (void) or are implicitly closed, ignored when measuring nesting depth.
const FLAT_TAGS = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'td', 'th', 'tr', 'option', 'dt', 'dd',
]);
/** Start tags (approximately: "<" followed by a letter), counting stops past `limit`; one linear pass. */
export function tagCount(html: string, limit: number): number {
  let n = 0;
  for (let i = html.indexOf('<'); i >= 0 && n <= limit; i = html.indexOf('<', i + 1)) {
    const c = html.charCodeAt(i + 1) | 0x20;
    if (c >= 97 && c <= 122) n++;
  }
  return n;
}

/** Deepest element nesting, approximately (stops counting past `limit`); one linear pass. */
export function nestingDepth(html: string, limit: number): number {
  const nameRe = /^(\/?)([a-zA-Z][\w:-]*)/;
  let depth = 0;
  let max = 0;
  let i = html.indexOf('<');
  while (i >= 0) {
    const j = html.indexOf('>', i + 1);
    if (j < 0) break;
    const m = nameRe.exec(html.slice(i + 1, Math.min(j, i + 64)));
    if (m && html[j - 1] !== '/' && !FLAT_TAGS.has(m[2]!.toLowerCase())) {
      if (m[1]) depth = Math.max(0, depth - 1);
      else if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    }
    i = html.indexOf('<', j + 1);
  }
  return max;
}

const NAMED: Record<string, string> = {
  nbsp: '\u00a0', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '\u00a9', reg: '\u00ae', mdash: '\u2014',
  ndash: '\u2013', hellip: '\u2026', rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d', ldquo: '\u201c', bull: '\u2022',
  middot: '\u00b7', euro: '\u20ac', pound: '\u00a3', sect: '\u00a7', deg: '\u00b0', times: '\u00d7', laquo: '\u00ab', raquo: '\u00bb',
};
/** Text of pathological markup (nesting too deep for a DOM walk): tags stripped, blocks as paragraphs. */
export function htmlToPlainText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|nav)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?(p|div|li|tr|h[1-6]|table|ul|ol|section|article|blockquote|pre)\b[^>]*>|<br\s*\/?>/gi, '\n\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
      }
      return NAMED[e.toLowerCase()] ?? m;
    });
}

export { MAX_HTML_NESTING };

export const partitionHtml: FormatPartitioner = async (data, ctx) => {
  const html = decodeHtml(data, ctx.options.encoding);
  return htmlToElements(html, { warn: (m) => ctx.warn(m), languages: ctx.options.languages });
};
