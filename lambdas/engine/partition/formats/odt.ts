// ODT partitioner: content.xml (ODF text) rendered to HTML (headings by outline level, paragraphs,
// lists, tables, links; an embedded chart's title and data after its paragraph), then the HTML
// partitioner with the library's title heuristics for short paragraphs (its ODT path converts to DOCX
// and keeps the 0.14-era typing seen in the expected output).
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { alongStyleChain, childElements, corrupt, escapeHtml, firstChild, isTag, localName, parseXml, readZip, zipText, type DomElement, type DomNode } from './common';
import { htmlToElements } from './html';
import { clampSpan } from '../table-html';
import { odfFormula } from './mathml';
import { isOdfChart, objectPart, readOdfChart } from './odf-charts';
import { chartElements } from './charts';
import { appendAll, type Element } from '../../elements';
import { randomBytes } from 'node:crypto';

// text:number is a list item's or heading's label as last formatted (a hint for readers without
// numbering): labels are no part of an item's text, as in the other formats; text:ruby-text is the
// reading aid set above its base text (furigana), as docx's w:rt
const SKIP = new Set(['annotation', 'note', 'tracked-changes', 'sequence-decls', 'forms', 'variable-decls', 'user-field-decls', 'bookmark-start', 'bookmark-end', 'soft-page-break', 'number', 'ruby-text']);

/**
 * An embedded formula object (draw:object, its own content.xml in the package) as HTML MathML that
 * carries its LaTeX: the HTML partitioner sets it in its paragraph between $, or as a Formula.
 * Unlike odp.ts (a formula object is a slide's shape of its own), it is not made a Formula here: where
 * it stands decides that (a display formula in a list item or heading stays in its text, a paragraph
 * of nothing but formulas is one), and the HTML step already decides it for any <math>.
 */
function formulaHtml(xml: string | undefined): string {
  const f = xml ? odfFormula(xml) : undefined;
  if (!f) return '';
  return `<math display="${f.display ? 'block' : 'inline'}"><semantics><annotation encoding="application/x-tex">${escapeHtml(f.latex)}</annotation></semantics></math>`;
}

/** Drawing shapes whose paragraphs are their own children (a text box's are in its draw:text-box). */
const SHAPES_WITH_TEXT = new Set(['draw:custom-shape', 'draw:rect', 'draw:ellipse', 'draw:circle', 'draw:polygon', 'draw:regular-polygon', 'draw:path', 'draw:caption']);

interface OdfStyle { name: string; display: string; parent?: string; outline?: number }

/** The paragraph styles of content.xml's and styles.xml's style lists, by name. */
function paragraphStyles(roots: (DomElement | undefined)[]): Map<string, OdfStyle> {
  const out = new Map<string, OdfStyle>();
  for (const root of roots) {
    for (const list of root ? ['styles', 'automatic-styles'].map((n) => firstChild(root, n)) : []) {
      for (const st of list ? childElements(list, 'style') : []) {
        const name = st.attribs['style:name'];
        if (!name || st.attribs['style:family'] !== 'paragraph') continue;
        const outline = Number(st.attribs['style:default-outline-level']);
        out.set(name, {
          name,
          display: (st.attribs['style:display-name'] ?? name.replace(/_20_/g, ' ')).toLowerCase(),
          parent: st.attribs['style:parent-style-name'],
          outline: Number.isInteger(outline) && outline >= 1 ? outline : undefined,
        });
      }
    }
  }
  return out;
}

/**
 * The heading level (1-6) a paragraph style gives through its parents: an outline level, a "Heading N"
 * style, Title (1) or Subtitle (2). A word processor's import (of HTML, of Word) writes headings as
 * ordinary paragraphs of such a style, or of an automatic style whose parent is one.
 */
function styleHeading(styles: Map<string, OdfStyle>, name: string | undefined): number | undefined {
  const level = alongStyleChain(name, (k) => styles.get(k), (st) => st.parent, (st) => {
    if (st.outline !== undefined) return st.outline;
    if (st.display === 'title') return 1;
    if (st.display === 'subtitle') return 2;
    const m = /^heading (\d)$/.exec(st.display);
    return m ? Number(m[1]) : undefined;
  });
  return level === undefined ? undefined : Math.min(6, Math.max(1, level));
}

/**
 * The document as HTML. An embedded chart outside tables is handed to `chart`, whose HTML stands in
 * its place (partitionOdt's marker for the chart's elements); in a table cell, or without `chart`, it
 * gives nothing.
 */
export function odtToHtml(
  contentXml: string,
  objectXml: (path: string) => string | undefined = () => undefined,
  stylesXml?: string,
  chart?: (xml: string) => string,
): string {
  const doc = parseXml(contentXml);
  const root = firstChild(doc, 'document-content');
  const styles = paragraphStyles([root, stylesXml ? firstChild(parseXml(stylesXml), 'document-styles') : undefined]);
  let inTable = 0;
  /** Paragraphs open (a text box's paragraph inside a paragraph), and what is set after the outermost one. */
  let inPara = 0;
  let afterPara = '';
  const body = root ? firstChild(root, 'body') : undefined;
  const text = body ? firstChild(body, 'text') : undefined;
  if (!text) throw new UnprocessableDocument('odt: content.xml has no office:text body');
  let html = '';
  const visit = (n: DomNode): void => {
    if (n.type === 'text') {
      html += escapeHtml(n.data);
      return;
    }
    if (!isTag(n)) return;
    const name = localName(n);
    // an index's source (a table of contents' text:table-of-content-source, ...) holds its templates
    // (the title it is made with, its entries' layout), not text: the index body shows what was made;
    // a shape's or picture's svg:title / svg:desc is its alt text (Word's generated "A picture
    // containing..." among them), never shown on the page
    if (SKIP.has(name) || (n.name.startsWith('text:') && name.endsWith('-source')) || n.name.startsWith('svg:')) return;
    const kids = (): void => n.children.forEach(visit);
    switch (name) {
      case 'h':
      case 'p': {
        // a paragraph of a heading style, outside tables (a cell's text stays the cell's)
        const level = name === 'h'
          ? Math.min(6, Math.max(1, Number(n.attribs['text:outline-level'] ?? 1) || 1))
          : inTable ? undefined : styleHeading(styles, n.attribs['text:style-name']);
        const tag = level ? `h${level}` : 'p';
        html += `<${tag}>`;
        inPara++;
        kids();
        inPara--;
        html += `</${tag}>`;
        if (!inPara) {
          html += afterPara;
          afterPara = '';
        }
        return;
      }
      case 'list':
        html += '<ul>';
        kids();
        html += '</ul>';
        return;
      case 'list-item':
      case 'list-header': {
        // an item's label (bullet or number) is on its first paragraph; the paragraphs after it, and
        // a list header's, are shown in the item's indent without one: paragraphs, not list items
        let labelled = name === 'list-item';
        for (const c of n.children) {
          const para = isTag(c) && (localName(c) === 'p' || localName(c) === 'h');
          if (para && labelled) {
            html += '<li>';
            visit(c);
            html += '</li>';
          } else visit(c);
          if (para) labelled = false;
        }
        return;
      }
      case 'table':
        html += '<table>';
        inTable++;
        kids();
        inTable--;
        html += '</table>';
        return;
      case 'table-row': {
        const repeat = Math.min(100, Number(n.attribs['table:number-rows-repeated'] ?? 1) || 1);
        const start = html.length;
        html += '<tr>';
        kids();
        html += '</tr>';
        const row = html.slice(start);
        if (repeat > 1 && /<td[^>]*>[^<]/.test(row)) html += row.repeat(repeat - 1);
        return;
      }
      // a spanning cell carries number-columns/rows-spanned; the positions it covers are
      // covered-table-cell elements, left out so the HTML's colspan/rowspan hold the grid
      case 'covered-table-cell':
        return;
      case 'table-cell': {
        const repeat = Math.min(64, Number(n.attribs['table:number-columns-repeated'] ?? 1) || 1);
        const cs = clampSpan(n.attribs['table:number-columns-spanned']);
        const rs = clampSpan(n.attribs['table:number-rows-spanned']);
        const start = html.length;
        html += `<td${cs > 1 ? ` colspan="${cs}"` : ''}${rs > 1 ? ` rowspan="${rs}"` : ''}>`;
        kids();
        html += '</td>';
        const cell = html.slice(start);
        if (repeat > 1) html += cell.repeat(repeat - 1);
        return;
      }
      case 'a':
        html += `<a href="${escapeHtml(n.attribs['xlink:href'] ?? '')}">`;
        kids();
        html += '</a>';
        return;
      case 's':
        html += ' '.repeat(Math.min(100, Number(n.attribs['text:c'] ?? 1) || 1));
        return;
      case 'tab':
        html += '\t';
        return;
      case 'line-break':
        html += '<br/>';
        return;
      case 'object': {
        const href = n.attribs['xlink:href'] ?? '';
        const xml = href ? objectXml(objectPart(href)) : undefined;
        if (xml && isOdfChart(xml)) {
          // after the paragraph it is drawn in: the paragraph's text stays whole
          if (chart && !inTable) {
            if (inPara) afterPara += chart(xml);
            else html += chart(xml);
          }
        } else html += formulaHtml(xml);
        return;
      }
      case 'section':
      case 'text-box':
        if (name === 'text-box' && inPara) {
          boxAfterParagraph(kids);
          return;
        }
        html += '<div>';
        kids();
        html += '</div>';
        return;
      default:
        // a shape holding its own paragraphs (a callout, a custom shape), drawn in a paragraph
        if (inPara && SHAPES_WITH_TEXT.has(n.name)) boxAfterParagraph(kids);
        else kids();
    }
  };
  /**
   * A text box or shape drawn in a paragraph (anchored to a character of it, or to it, as LibreOffice
   * sets Word's boxes) is read after that paragraph, which stays whole, as the docx partitioner reads
   * boxes: not between the halves of a sentence, nor before the text it is anchored in.
   */
  const boxAfterParagraph = (render: () => void): void => {
    const before = afterPara;
    afterPara = '';
    const start = html.length;
    html += '<div>';
    render();
    html += '</div>';
    afterPara = before + html.slice(start) + afterPara;
    html = html.slice(0, start);
  };
  text.children.forEach(visit);
  return html;
}

export const partitionOdt: FormatPartitioner = async (data, ctx) => {
  // the document and its embedded objects' content (formulas)
  const files = readZip(data, 'odt', (n) => n === 'content.xml' || n === 'styles.xml' || /^[^/]+\/content\.xml$/.test(n));
  const xml = zipText(files, 'content.xml');
  if (!xml) throw new UnprocessableDocument('odt: content.xml is missing (not an OpenDocument text?)');
  try {
    // a chart's place is held by a marker paragraph no document can contain (a random token), then
    // taken by the chart's title and data (charts.ts), as in the other formats
    const token = `odtchart${randomBytes(8).toString('hex')}n`;
    const charts: string[] = [];
    const html = odtToHtml(xml, (path) => zipText(files, path), zipText(files, 'styles.xml'), (chartXml) => `<div>${token}${charts.push(chartXml) - 1}</div>`);
    const els = htmlToElements(html, { shortText: 'title', topListDepth: 0, languages: ctx.options.languages });
    if (!charts.length) return els;
    const out: Element[] = [];
    for (const e of els) {
      const k = e.text.startsWith(token) ? Number(e.text.slice(token.length)) : NaN;
      if (charts[k] !== undefined) appendAll(out, chartElements(charts[k]!, {}, (m) => ctx.warn(m), 'odt', readOdfChart));
      else out.push(e);
    }
    return out;
  } catch (err) {
    return corrupt('odt', err);
  }
};
