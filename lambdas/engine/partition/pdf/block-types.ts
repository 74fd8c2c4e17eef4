// What a page block is (its element type) and the metadata its words carry (emphasis, links), once the
// layout (layout.ts) has made the block.
import type { ElementType } from '../../elements';
import { CAPTION_LABEL, CAPTION_START, classifyText, fullSentence, isBulletedText, isPageNumberLike, isPossibleNarrativeText, isPossibleTitle, underNonAlphaRatio, type ClassifyOptions } from '../classify';
import { LETTERED_ITEM } from '../list-labels';
import type { Box, RawPage, Segment } from './page-text';
import type { TableRows } from '../table-html';
import { pageMargin } from './reading-order';

/** A paragraph, table, figure or formula of a page, as the layout (layout.ts) builds it. */
export interface Block extends Box {
  lines: Segment[];
  size: number;
  table?: TableRows;
  /** A figure drawn as vector art: its lines are the labels set in it (figures.ts). */
  figure?: boolean;
  /** A display formula, one Formula element (formulas.ts: pieces lined up like cells, or lying about as pieces). */
  formula?: boolean;
  /** Set above the page's columns and across them (authors side by side): read before the columns. */
  head?: boolean;
}

/** A section number and its heading: "2. Offices", "3) Results", "4.1. Scope". */
const NUMBERED_HEADING = /^\d{1,2}(\.\d{1,2})*[.)]\s+\p{L}/u;

/** A caption's label and nothing else: "TABLE I", "Fig. 3". */
const CAPTION_LABEL_ALONE = new RegExp(`${CAPTION_LABEL.source}[.:]?$`, 'i');

const RELATION = /[=≤≥≈≠∝≡]/u;
/**
 * A display equation's text: short, a relation between terms on both sides, no word of four letters
 * or more (function names are shorter, "log", "max"; a legend's "A = adjustments" is words), no
 * statement's close ("x = 1;") nor a link's query ("?id=3&page=2").
 */
export function displayEquation(text: string): boolean {
  if (text.length < 3 || text.length > 150 || /[;&?]|https?:|www\./.test(text)) return false;
  const m = RELATION.exec(text);
  if (!m || !/[\p{L}\p{N})\]}]\s*$/u.test(text.slice(0, m.index)) || !/^\s*[\p{L}\p{N}(\[{−\-+√∑∫]/u.test(text.slice(m.index + 1))) return false;
  return !text.split(/\s+/).some((w) => /^\p{L}{4,}[.,:]?$/u.test(w));
}

/** Letters all capitals (three or more). */
export const allCaps = (text: string): boolean => {
  const letters = text.match(/\p{L}/gu) ?? [];
  return letters.length >= 3 && letters.every((c) => c === c.toUpperCase() && c !== c.toLowerCase());
};

/** A sentence of six words or more: as written in a cased script (fullSentence), or in one without case (Hebrew, Arabic) ending as a sentence does. */
const sentence = (text: string): boolean => fullSentence(text, 6) || (/^\p{Lo}/u.test(text) && /\p{Lo}{2,}[.!?\u061f\u06d4]$/u.test(text) && text.split(/\s+/).length >= 6);

export function classifyBlock(b: Block, text: string, page: RawPage, body: number, langOpts: ClassifyOptions, lowest: boolean): ElementType {
  // a heading set a third larger than the body at the head of the page is the page's title, not a
  // running head, though it reaches into the margin band (a word processor's heading on a page with
  // narrow margins; an OCR'd page's tight glyph boxes)
  const bigHead = b.size >= 1.3 * body && b.lines.length <= 2 && !isPageNumberLike(text) && !isBulletedText(text);
  const band = pageMargin(b, page, text.length);
  // nor is a bulleted item at its foot (a list running down into the band of a page printed with
  // narrow margins)
  // nor is a sentence of six words or more at its head (a page printed with narrow margins starts
  // with its text: running heads are titles and names, not sentences)
  const margin = (band === 'top' && (bigHead || sentence(text))) || (band === 'bottom' && isBulletedText(text)) ? undefined : band;
  const inTop = margin === 'top';
  if (margin) {
    if (isPageNumberLike(text)) return 'PageNumber';
    return inTop ? 'Header' : 'Footer';
  }
  // The folio a few lines under the body (LaTeX sets it about an inch above the page's edge): the
  // page's lowest text, in its bottom fifth, one short line that reads as a page number.
  if (lowest && b.y0 >= page.height * 0.8 && b.lines.length === 1 && isPageNumberLike(text)) return 'PageNumber';
  // Captions ("Figure 3: ...", "Table 1. ...", "FIG. 2 – ...") as the layout model labels them.
  if (CAPTION_START.test(text) && text.length <= 400) return 'FigureCaption';
  // so is a label on a line of its own over the caption's text ("TABLE I" / "FIELD TRIAL RESULTS")
  if (b.lines.length >= 2 && CAPTION_LABEL_ALONE.test(b.lines[0]!.text.trim()) && text.length <= 400) return 'FigureCaption';
  // a display equation on a line or two of its own (a layout model's Formula); one set as a list's
  // item stays the item
  if (b.lines.length <= 2 && displayEquation(text) && !isBulletedText(text)) return 'Formula';
  let type = classifyText(text, langOpts);
  // an item lettered or numbered in Roman in parentheses ("(a) Use the restated figures", "ii) Leave out")
  if ((type === 'NarrativeText' || type === 'UncategorizedText' || type === 'Title') && LETTERED_ITEM.test(text)) type = 'ListItem';
  // A long sentence-like block is body text to a layout model even when the verb stand-in finds no
  // verb ("2 For instance, the score ... drops from above 80% to less than 40%.").
  if (type === 'UncategorizedText' && text.split(' ').length >= 12 && /[.!?]["')\]]?$/.test(text) && isPossibleNarrativeText(text, { ...langOpts, languages: ['und'] })) type = 'NarrativeText';
  // So is any other run of eight words or more (an author line, affiliations, keywords): the
  // library's hi_res types a text region by its layout label, Text, whatever its verbs or capitals.
  if (type === 'UncategorizedText' && text.split(' ').length >= 8 && !underNonAlphaRatio(text)) type = 'NarrativeText';
  const words = b.lines.flatMap((l) => l.words);
  const allBold = words.length > 0 && words.every((w) => w.bold);
  const larger = b.size >= body * 1.15;
  if (type === 'NarrativeText' && (allBold || larger) && b.lines.length <= 3 && !/[.:;,]$/.test(text) && isPossibleTitle(text, langOpts)) type = 'Title';
  if (type === 'Title' && !allBold && !larger && text.split(' ').length > 6 && b.lines.length > 1) type = 'NarrativeText';
  // so is a listing of two lines or more in a monospaced face (commands or keywords in capitals)
  if (type === 'Title' && !allBold && !larger && b.lines.length > 1 && words.every((w) => w.mono)) type = 'NarrativeText';
  // a sentence of five words or more, closed by its full stop, in the body's weight and size; of three
  // or more when it ends on a word ("The first definition.", not "J. Smith et al."); so is one that
  // leads into a list or table after its colon ("The feeder accepts the following media:")
  if (type === 'Title' && !allBold && !larger && (text.split(' ').length >= 5 ? /[.!?]$|\p{Ll}{2}:$/u.test(text) : fullSentence(text, 3)) && !/^\d+(\.\d+)*\.?\s/.test(text)) type = 'NarrativeText';
  // so is one set smaller than the body, numbered or not (a footnote: "1 Contractors receive ..."),
  // when it ends a word's sentence (not an abbreviation's: "2 Z. Shen et al.")
  if (type === 'Title' && b.size < 0.9 * body && text.split(' ').length >= 5 && /\p{L}{3,}[.!?]$/u.test(text)) type = 'NarrativeText';
  // A short line of capitals without closing punctuation is a heading, though a word of it reads as a
  // verb ("II. RELATED WORK" in small capitals)
  if (type === 'NarrativeText' && b.lines.length === 1 && text.split(' ').length <= 8 && !/[.:;,!?]$/.test(text) && allCaps(text) && isPossibleTitle(text, langOpts)) type = 'Title';
  // A numbered section heading ("2. Offices") set larger than the body: a title, not a list item.
  if (type === 'ListItem' && larger && NUMBERED_HEADING.test(text) && b.lines.length <= 2 && text.split(' ').length <= 12 && !/[.:;,]$/.test(text)) type = 'Title';
  // So is one set bold in the body size on a line of its own ("1. Introduction" of a report set with
  // troff or a word processor): a few words without closing punctuation.
  if (type === 'ListItem' && allBold && NUMBERED_HEADING.test(text) && b.lines.length === 1 && text.split(' ').length <= 8 && !/[.:;,!?]$/.test(text)) type = 'Title';
  return type;
}

export function addEmphasis(b: Block, md: Record<string, unknown>): void {
  const contents: string[] = [];
  const tags: string[] = [];
  let run: string[] = [];
  let runTag = '';
  const flush = () => { if (run.length) { contents.push(run.join(' ')); tags.push(runTag); } run = []; runTag = ''; };
  for (const l of b.lines) {
    for (const w of l.words) {
      const tag = w.bold ? 'b' : w.italic ? 'i' : '';
      if (tag !== runTag) flush();
      if (tag) { runTag = tag; run.push(w.t); }
    }
  }
  flush();
  if (contents.length) { md.emphasized_text_contents = contents; md.emphasized_text_tags = tags; }
}

export function addLinks(b: Block, text: string, page: RawPage, md: Record<string, unknown>): void {
  if (!page.links.length) return;
  const urls: string[] = [], texts: string[] = [], starts: number[] = [];
  for (const link of page.links) {
    if (link.x1 < b.x0 || link.x0 > b.x1 || link.y1 < b.y0 || link.y0 > b.y1) continue;
    const inside: string[] = [];
    for (const l of b.lines) {
      for (const w of l.words) {
        const cx = (w.x0 + w.x1) / 2, cy = (w.y0 + w.y1) / 2;
        if (cx >= link.x0 - 1 && cx <= link.x1 + 1 && cy >= link.y0 - 1 && cy <= link.y1 + 1) inside.push(w.t);
      }
    }
    if (!inside.length) continue;
    const lt = inside.join(' ');
    urls.push(link.url);
    texts.push(lt);
    starts.push(text.indexOf(lt));
  }
  if (urls.length) { md.link_urls = urls; md.link_texts = texts; md.link_start_indexes = starts; }
}
