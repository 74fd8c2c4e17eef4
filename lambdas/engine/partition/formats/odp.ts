// OpenDocument presentation (.odp) partitioner, typed as the PPTX partitioner types slides: the
// draw:page elements of content.xml in order (page_number = slide number); on each slide the shapes
// sorted top-to-bottom, then left-to-right, by their svg:y / svg:x (odp-shapes.ts), a group's shapes
// likewise. A title frame gives Title (a subtitle a Title a level under it); list items give
// ListItem with category_depth = their list's nesting, other paragraphs are typed by the text
// heuristics (odf-text.ts); a table frame gives a Table (odf-tables.ts), a chart object its title and a
// Table of its data (odf-charts.ts). The speaker notes (presentation:notes), then the slide's review
// comments (officeooo:annotation), follow the slide's content when includeSlideNotes is set. Headers,
// footers, dates, slide numbers and pictures are left out, as the PPTX partitioner leaves them.
import { appendAll, makeElement, type Element, type ElementMetadata } from '../../elements';
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { tableText, tableToHtml } from '../table-html';
import { childElements, corrupt, descendants, firstChild, localName, parseXml, readZip, textContent, zipText, type DomElement } from './common';
import { chartElements } from './charts';
import { isOdfChart, objectPart, readOdfChart } from './odf-charts';
import { odfFormula } from './mathml';
import { odfParagraphs, readOdfStyles, type OdfStyles } from './odf-text';
import { odfTableRows } from './odf-tables';
import { readingOrder } from './odp-shapes';
import { noteElement, paragraphElement } from './pptx';
import { commentElement } from './pptx-comments';

/** Frames of the master's furniture, repeated on every slide (the PPTX partitioner skips them too). */
const FURNITURE = new Set(['header', 'footer', 'date-time', 'page-number', 'page', 'handout']);

interface Slide {
  md: ElementMetadata;
  styles: OdfStyles;
  languages?: string[];
  /** The elements of an embedded object (a chart), by its xlink:href. */
  object(href: string): Element[];
}

function textElements(container: DomElement, cls: string | undefined, slide: Slide, out: Element[]): void {
  for (const para of odfParagraphs(container, slide.styles)) {
    const el = paragraphElement(para, slide.md, cls === 'title' || cls === 'subtitle', slide.languages);
    if (el && cls === 'subtitle') el.metadata.category_depth = 1;
    if (el) out.push(el);
  }
}

const cellText = (styles: OdfStyles) => (cell: DomElement): string =>
  odfParagraphs(cell, styles).map((p) => p.text.trim()).filter(Boolean).join('\n');

/** The elements of one shape (not a group): a frame's text box, table or chart object, or a drawing shape's own text. */
function shapeElements(shape: DomElement, slide: Slide, out: Element[]): void {
  const cls = shape.attribs['presentation:class'];
  if (cls && FURNITURE.has(cls)) return;
  if (localName(shape) !== 'frame') {
    textElements(shape, cls, slide, out);
    return;
  }
  for (const c of childElements(shape)) {
    const name = localName(c);
    if (name === 'text-box') textElements(c, cls, slide, out);
    else if (name === 'table') {
      const rows = odfTableRows(c, cellText(slide.styles), 'odp');
      const text = tableText(rows);
      if (text) out.push(makeElement('Table', text, { ...slide.md, text_as_html: tableToHtml(rows) }));
    } else if (name === 'object' && c.attribs['xlink:href']) appendAll(out, slide.object(c.attribs['xlink:href']));
  }
}

/** Speaker notes: the paragraphs of the notes page's notes frames. */
function notesElements(page: DomElement, slide: Slide): Element[] {
  const out: Element[] = [];
  for (const notes of childElements(page, 'presentation:notes')) {
    for (const frame of childElements(notes).filter((f) => f.attribs['presentation:class'] === 'notes')) {
      for (const box of childElements(frame, 'draw:text-box')) {
        for (const para of odfParagraphs(box, slide.styles)) {
          const text = para.text.trim();
          if (text) out.push(noteElement(text, slide.md, slide.languages));
        }
      }
    }
  }
  return out;
}

/** Review comments on the slide: officeooo:annotation with dc:creator, dc:date, the author's initials and paragraphs. */
function commentElements(page: DomElement, slide: Slide): Element[] {
  const out: Element[] = [];
  for (const a of childElements(page).filter((c) => localName(c) === 'annotation')) {
    const field = (name: string): string | undefined => {
      const el = childElements(a).find((c) => localName(c) === name);
      return el ? textContent(el).trim() || undefined : undefined;
    };
    const author = { name: field('creator') ?? '', initials: field('creator-initials') ?? field('sender-initials') ?? '' };
    const text = odfParagraphs(a, slide.styles).map((p) => p.text.trim()).filter(Boolean).join('\n');
    const el = commentElement(author, field('date'), text, slide.md);
    if (el) out.push(el);
  }
  return out;
}

export const partitionOdp: FormatPartitioner = async (data, ctx) => {
  const files = readZip(data, 'odp', (n) => n === 'content.xml' || n === 'styles.xml');
  const xml = zipText(files, 'content.xml');
  if (!xml) throw new UnprocessableDocument('odp: content.xml is missing (not an OpenDocument presentation?)');
  try {
    const root = firstChild(parseXml(xml), 'document-content');
    const body = root ? firstChild(root, 'body') : undefined;
    const presentation = body ? firstChild(body, 'presentation') : undefined;
    if (!root || !presentation) throw new UnprocessableDocument('odp: content.xml has no office:presentation body');
    const stylesXml = zipText(files, 'styles.xml');
    const stylesRoot = stylesXml ? firstChild(parseXml(stylesXml), 'document-styles') : undefined;
    const styles = readOdfStyles([firstChild(root, 'automatic-styles'), stylesRoot ? firstChild(stylesRoot, 'styles') : undefined]);
    // the embedded objects the slides draw, read once
    const hrefs = descendants(presentation, 'draw:object').map((o) => o.attribs['xlink:href']).filter((h): h is string => !!h);
    const wanted = new Set(hrefs.map(objectPart));
    const objects = wanted.size ? readZip(data, 'odp', (n) => wanted.has(n)) : new Map<string, Uint8Array>();
    const out: Element[] = [];
    childElements(presentation, 'draw:page').forEach((page, i) => {
      const md: ElementMetadata = { page_number: i + 1 };
      const object = (href: string): Element[] => {
        const part = zipText(objects, objectPart(href));
        if (part && isOdfChart(part)) return chartElements(part, md, (m) => ctx.warn(m), `odp slide ${i + 1}`, readOdfChart);
        // a formula object: its LaTeX
        const formula = part ? odfFormula(part) : undefined;
        return formula ? [makeElement('Formula', formula.latex, md)] : [];
      };
      const slide: Slide = { md, styles, languages: ctx.options.languages, object };
      const slideEls: Element[] = [];
      for (const shape of readingOrder(page)) shapeElements(shape, slide, slideEls);
      if (ctx.options.includeSlideNotes) {
        appendAll(slideEls, notesElements(page, slide));
        appendAll(slideEls, commentElements(page, slide));
      }
      appendAll(out, slideEls);
    });
    return out;
  } catch (err) {
    return corrupt('odp', err);
  }
};
