// PPTX partitioner (PresentationML read from the zip), after the library's partition_pptx: slides in
// presentation order (page_number = slide number); shapes sorted top-to-bottom, left-to-right, groups
// recursed and their members sorted likewise; title placeholders give Title, bulleted paragraphs (buChar/buAutoNum/buBlip, their own or
// inherited from the layout and master: pptx-layout.ts) ListItem with category_depth = level, other
// paragraphs typed by the text heuristics; tables become Table, charts their title and a Table of
// their cached data (charts.ts), SmartArt its nodes' text as ListItems by their depth (pptx-smartart.ts); speaker notes, then the slide's review comments (pptx-comments.ts),
// are appended per slide when includeSlideNotes is set (both annotate the slide rather than show on it).
import { slideReadingOrder } from './slide-order';
import { appendAll, makeElement, type Element, type ElementMetadata } from '../../elements';
import type { FormatPartitioner } from '../types';
import { isBulletedText, isEmailAddress, isPossibleNarrativeText, isPossibleTitle, stripBullet } from '../classify';
import { UnprocessableDocument } from '../../../errors';
import {
  attr, childElements, corrupt, firstChild, isTag, localName, parseXml, readZip,
  zipText, type DomElement,
} from './common';
import { clampSpan, tableToHtml, tableText, type TableRows } from '../table-html';
import { chartElements } from './charts';
import { smartArtNodes, type SmartArtNode } from './pptx-smartart';
import { ommlToLatex } from './omml';
import { formulaText, inlineMath, onlyMath } from './math-latex';
import { commentAuthors, commentElements, slideCommentParts } from './pptx-comments';
import {
  findFirst, inheritedBullet, NOTHING_INHERITED, ownBullet, position, readRels, slideInheritance, type Inherited, type Rels,
} from './pptx-layout';
import { mainPartPath } from './ooxml-package';

function placeholderType(shape: DomElement): string | undefined {
  const nv = firstChild(shape, 'nvSpPr');
  const nvPr = nv ? firstChild(nv, 'nvPr') : undefined;
  const ph = nvPr ? firstChild(nvPr, 'ph') : undefined;
  if (!ph) return undefined;
  return ph.attribs['type'] ?? 'obj';
}

export interface ParaText {
  text: string;
  level: number;
  bulleted: boolean;
  /** What the paragraph's own a:pPr says about a bullet (undefined: inherited). */
  ownBullet?: boolean;
  links: { url: string; text: string }[];
  emph: { text: string; tag: string }[];
  /** characters of text that came from Office Math (a14:m), with the $ around it */
  mathChars?: number;
}

function readParagraph(p: DomElement, rels: Rels): ParaText {
  const pPr = firstChild(p, 'pPr');
  const out: ParaText = { text: '', level: Number(pPr?.attribs['lvl'] ?? 0) || 0, bulleted: false, links: [], emph: [] };
  out.ownBullet = ownBullet(pPr);
  out.bulleted = out.ownBullet ?? false;
  for (const c of childElements(p)) {
    const n = localName(c);
    if (n === 'r' || n === 'fld') {
      const t = firstChild(c, 't');
      const text = t ? t.children.map((x) => (x.type === 'text' ? x.data : '')).join('') : '';
      out.text += text;
      const rPr = firstChild(c, 'rPr');
      if (rPr && text.trim()) {
        if (rPr.attribs['b'] === '1' || rPr.attribs['b'] === 'true') out.emph.push({ text: text.trim(), tag: 'b' });
        if (rPr.attribs['i'] === '1' || rPr.attribs['i'] === 'true') out.emph.push({ text: text.trim(), tag: 'i' });
        const link = firstChild(rPr, 'hlinkClick');
        const rid = link ? attr(link, 'id') : undefined;
        const url = rid ? rels.get(rid) : undefined;
        if (url) out.links.push({ url, text });
      }
    } else if (n === 'br') {
      out.text += '\n';
    } else if (n === 'm') {
      // Office Math (a14:m around m:oMath or m:oMathPara) as inline LaTeX
      const math = childElements(c).find((x) => localName(x) === 'oMath' || localName(x) === 'oMathPara');
      const latex = math ? inlineMath(ommlToLatex(math)) : '';
      out.text += latex;
      out.mathChars = (out.mathChars ?? 0) + latex.replace(/\s/g, '').length;
    }
  }
  return out;
}

export function paragraphElement(para: ParaText, md: ElementMetadata, asTitle: boolean, languages?: string[]): Element | undefined {
  const text = para.text.trim();
  if (!text) return undefined;
  const meta: ElementMetadata = { ...md };
  if (para.links.length) {
    meta.link_urls = para.links.map((l) => l.url);
    meta.link_texts = para.links.map((l) => l.text);
  }
  if (para.emph.length) {
    meta.emphasized_text_contents = para.emph.map((e) => e.text);
    meta.emphasized_text_tags = para.emph.map((e) => e.tag);
  }
  if (asTitle) return makeElement('Title', text, { ...meta, category_depth: 0 });
  if (onlyMath(text, para.mathChars ?? 0)) return makeElement('Formula', formulaText(text), meta);
  if (para.bulleted || isBulletedText(text)) {
    return makeElement('ListItem', stripBullet(text) || text, { ...meta, category_depth: para.level });
  }
  if (isEmailAddress(text)) return makeElement('EmailAddress', text, meta);
  if (isPossibleNarrativeText(text, { languages })) return makeElement('NarrativeText', text, meta);
  if (isPossibleTitle(text, { languages })) return makeElement('Title', text, { ...meta, category_depth: 1 });
  return makeElement('UncategorizedText', text, meta);
}

/**
 * A DrawingML table (a:tbl): every a:tr lists one a:tc per grid column; a cell that starts a merge
 * carries gridSpan/rowSpan, the positions it covers are a:tc with hMerge/vMerge (skipped here). One
 * Table, text row by row, text_as_html with colspan/rowspan.
 */
function tableElement(tbl: DomElement, rels: Rels, md: ElementMetadata): Element | undefined {
  const rows: TableRows = [];
  for (const tr of childElements(tbl, 'tr')) {
    const row: TableRows[number] = [];
    for (const tc of childElements(tr, 'tc')) {
      if (onOff(tc.attribs['hMerge']) || onOff(tc.attribs['vMerge'])) continue;
      const body = firstChild(tc, 'txBody');
      const text = body
        ? childElements(body, 'p').map((p) => readParagraph(p, rels).text.trim()).filter(Boolean).join('\n')
        : '';
      row.push({ text, colspan: clampSpan(tc.attribs['gridSpan']), rowspan: clampSpan(tc.attribs['rowSpan']) });
    }
    rows.push(row);
  }
  const text = tableText(rows);
  if (!text) return undefined;
  return makeElement('Table', text, { ...md, text_as_html: tableToHtml(rows) });
}

const onOff = (v: string | undefined): boolean => v === '1' || v === 'true';

/** The shapes of a slide's tree or a group that can hold text (a shape in alternatives: one holding math, in a group too). */
const SHAPES = ['sp', 'grpSp', 'graphicFrame', 'AlternateContent'];

/** Tops this close (EMU: a twentieth of an inch) are one row of shapes, read left to right. */
const SAME_ROW = 45_720;

/**
 * A group's children are placed in its own child coordinates (a:chOff/a:chExt mapped onto a:off/a:ext):
 * the mapping keeps their order, so they are sorted there, with the row tolerance scaled alike.
 */
function childSameRow(group: DomElement, sameRow: number): number {
  const pr = firstChild(group, 'grpSpPr');
  const xfrm = pr ? firstChild(pr, 'xfrm') : undefined;
  const ext = xfrm ? Number(firstChild(xfrm, 'ext')?.attribs['cy']) : NaN;
  const chExt = xfrm ? Number(firstChild(xfrm, 'chExt')?.attribs['cy']) : NaN;
  return ext > 0 && chExt > 0 ? (sameRow * chExt) / ext : sameRow;
}

/** The parts a slide's graphic frames refer to, by relationship id: a chart's elements, a SmartArt diagram's nodes. */
interface FrameParts {
  chart(rid: string): Element[];
  diagram(rid: string): SmartArtNode[];
}

/** `sameRow`: the row tolerance to sort `shapes` in reading order by; undefined keeps document order. */
function shapeElements(
  shapes: DomElement[],
  rels: Rels,
  md: ElementMetadata,
  out: Element[],
  sameRow: number | undefined,
  inherited: Inherited = NOTHING_INHERITED,
  languages?: string[],
  frames?: FrameParts,
): void {
  const ordered = sameRow !== undefined ? slideReadingOrder(shapes.map((s, i) => ({ s, i, pos: position(s, inherited) })), sameRow).map((x) => x.s) : shapes;
  for (const shape of ordered) {
    const name = localName(shape);
    if (name === 'grpSp') {
      const members = childElements(shape).filter((c) => SHAPES.includes(localName(c)));
      shapeElements(members, rels, md, out, sameRow === undefined ? undefined : childSameRow(shape, sameRow), inherited, languages, frames);
    } else if (name === 'sp') {
      const body = firstChild(shape, 'txBody');
      if (!body) continue;
      const ph = placeholderType(shape);
      if (ph === 'sldNum' || ph === 'dt' || ph === 'ftr' || ph === 'hdr') continue;
      const asTitle = ph === 'title' || ph === 'ctrTitle';
      for (const p of childElements(body, 'p')) {
        const para = readParagraph(p, rels);
        // a paragraph that says nothing of bullets has the one its placeholder inherits
        if (para.ownBullet === undefined && !asTitle && para.text.trim()) para.bulleted = inheritedBullet(shape, para.level, inherited);
        const el = paragraphElement(para, md, asTitle, languages);
        if (el) out.push(el);
      }
    } else if (name === 'graphicFrame') {
      const graphic = firstChild(shape, 'graphic');
      const data = graphic ? firstChild(graphic, 'graphicData') : undefined;
      const tbl = data ? firstChild(data, 'tbl') : undefined;
      const chartRef = data ? firstChild(data, 'chart') : undefined;
      const rid = chartRef ? attr(chartRef, 'id') : undefined;
      const diagram = data ? firstChild(data, 'relIds') : undefined;
      const dataRid = diagram ? attr(diagram, 'dm') : undefined;
      if (tbl) {
        const el = tableElement(tbl, rels, md);
        if (el) out.push(el);
      } else if (rid && frames) {
        appendAll(out, frames.chart(rid));
      } else if (dataRid && frames) {
        for (const node of frames.diagram(dataRid)) {
          for (const p of node.paragraphs) {
            const para = readParagraph(p, rels);
            const el = paragraphElement({ ...para, bulleted: true, level: node.depth }, md, false, languages);
            if (el) out.push(el);
          }
        }
      }
    } else if (name === 'AlternateContent') {
      const choice = firstChild(shape, 'Choice') ?? firstChild(shape, 'Fallback');
      if (choice) shapeElements(childElements(choice), rels, md, out, undefined, inherited, languages, frames);
    }
  }
}

/** A speaker-notes paragraph: said about the slide, typed by the text heuristics without list or title rules. */
export function noteElement(text: string, md: ElementMetadata, languages?: string[]): Element {
  return makeElement(isPossibleNarrativeText(text, { languages }) ? 'NarrativeText' : 'UncategorizedText', text, md);
}

function notesElements(files: Map<string, Uint8Array>, notesPath: string, md: ElementMetadata, languages?: string[]): Element[] {
  const xml = zipText(files, notesPath);
  if (!xml) return [];
  const rels = readRels(files, notesPath);
  const out: Element[] = [];
  const doc = parseXml(xml);
  const tree = findFirst(doc.children.filter(isTag), 'spTree');
  if (!tree) return out;
  for (const sp of childElements(tree, 'sp')) {
    const ph = placeholderType(sp);
    if (ph !== 'body') continue;
    const body = firstChild(sp, 'txBody');
    if (!body) continue;
    for (const p of childElements(body, 'p')) {
      const para = readParagraph(p, rels);
      const text = para.text.trim();
      if (text) out.push(noteElement(text, md, languages));
    }
  }
  return out;
}

export const partitionPptx: FormatPartitioner = async (data, ctx) => {
  const files = readZip(data, 'pptx', (n) => (n.startsWith('ppt/') && (n.endsWith('.xml') || n.endsWith('.rels'))) || n === '_rels/.rels');
  const main = mainPartPath(files, 'ppt/presentation.xml');
  const presXml = zipText(files, main);
  if (!presXml) throw new UnprocessableDocument('pptx: ppt/presentation.xml is missing (not a PowerPoint document?)');
  try {
    const presRels = readRels(files, main);
    const pres = firstChild(parseXml(presXml), 'presentation');
    const idList = pres ? firstChild(pres, 'sldIdLst') : undefined;
    const slidePaths = (idList ? childElements(idList, 'sldId') : [])
      .map((s) => {
        const rid = Object.entries(s.attribs).find(([k]) => k.endsWith(':id'))?.[1];
        return rid ? presRels.get(rid) : undefined;
      })
      .filter((p): p is string => !!p && files.has(p));
    const out: Element[] = [];
    let authors: ReturnType<typeof commentAuthors> | undefined;
    const layouts = new Map<string, Inherited>();
    slidePaths.forEach((path, i) => {
      const md: ElementMetadata = { page_number: i + 1 };
      const rels = readRels(files, path);
      const doc = parseXml(zipText(files, path) ?? '');
      const tree = findFirst(doc.children.filter(isTag), 'spTree');
      const slideEls: Element[] = [];
      if (tree) {
        const shapes = childElements(tree).filter((c) => SHAPES.includes(localName(c)));
        const partXml = (rid: string): string | undefined => {
          const part = rels.get(rid);
          return part ? zipText(files, part) : undefined;
        };
        const frames: FrameParts = {
          chart(rid) {
            const xml = partXml(rid);
            return xml ? chartElements(xml, md, (m) => ctx.warn(m), `pptx slide ${i + 1}`) : [];
          },
          diagram(rid) {
            const xml = partXml(rid);
            try {
              return xml ? smartArtNodes(xml) : [];
            } catch (err) {
              // a data part past the XML caps: the slide stands without the diagram's text
              ctx.warn(`pptx slide ${i + 1}: a SmartArt diagram could not be read (${(err as Error).message}); it is left out`);
              return [];
            }
          },
        };
        shapeElements(shapes, rels, md, slideEls, SAME_ROW, slideInheritance(files, rels, layouts), ctx.options.languages, frames);
      }
      if (ctx.options.includeSlideNotes) {
        const notes = [...rels.values()].find((t) => /notesSlides\/notesSlide\d+\.xml$/.test(t));
        if (notes) appendAll(slideEls, notesElements(files, notes, md, ctx.options.languages));
        for (const part of slideCommentParts(rels.values())) {
          const xml = zipText(files, part);
          if (!xml) continue;
          try {
            appendAll(slideEls, commentElements(xml, (authors ??= commentAuthors(files)), md));
          } catch (err) {
            // a comment part past the XML caps: the slide stands without its comments
            ctx.warn(`pptx slide ${i + 1}: the comments could not be read (${(err as Error).message}); they are left out`);
          }
        }
      }
      appendAll(out, slideEls);
    });
    return out;
  } catch (err) {
    return corrupt('pptx', err);
  }
};
