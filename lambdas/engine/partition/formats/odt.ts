// ODT partitioner: content.xml (ODF text) rendered to HTML (headings by outline level, paragraphs,
// lists, tables, links), then the HTML partitioner with the library's title heuristics for short
// paragraphs (its ODT path converts to DOCX and keeps the 0.14-era typing seen in the expected output).
import type { FormatPartitioner } from '../types';
import { UnprocessableDocument } from '../../../errors';
import { corrupt, escapeHtml, firstChild, isTag, localName, parseXml, readZip, zipText, type DomNode } from './common';
import { htmlToElements } from './html';
import { clampSpan } from '../table-html';
import { odfFormula } from './mathml';
import { objectPart } from './odf-charts';

const SKIP = new Set(['annotation', 'note', 'tracked-changes', 'sequence-decls', 'forms', 'variable-decls', 'user-field-decls', 'bookmark-start', 'bookmark-end', 'soft-page-break']);

/**
 * An embedded formula object (draw:object, its own content.xml in the package) as HTML MathML that
 * carries its LaTeX: the HTML partitioner sets it in its paragraph between $, or as a Formula.
 * Unlike odp.ts (a formula object is a slide's shape of its own), it is not made a Formula here: where
 * it stands decides that (a display formula in a list item or heading stays in its text, a paragraph
 * of nothing but formulas is one), and the HTML step already decides it for any <math>.
 */
function formulaHtml(href: string, objectXml: (path: string) => string | undefined): string {
  const xml = href ? objectXml(objectPart(href)) : undefined;
  const f = xml ? odfFormula(xml) : undefined;
  if (!f) return '';
  return `<math display="${f.display ? 'block' : 'inline'}"><semantics><annotation encoding="application/x-tex">${escapeHtml(f.latex)}</annotation></semantics></math>`;
}

export function odtToHtml(contentXml: string, objectXml: (path: string) => string | undefined = () => undefined): string {
  const doc = parseXml(contentXml);
  const root = firstChild(doc, 'document-content');
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
    if (SKIP.has(name)) return;
    const kids = (): void => n.children.forEach(visit);
    switch (name) {
      case 'h': {
        const level = Math.min(6, Math.max(1, Number(n.attribs['text:outline-level'] ?? 1) || 1));
        html += `<h${level}>`;
        kids();
        html += `</h${level}>`;
        return;
      }
      case 'p':
        html += '<p>';
        kids();
        html += '</p>';
        return;
      case 'list':
        html += '<ul>';
        kids();
        html += '</ul>';
        return;
      case 'list-item':
      case 'list-header':
        html += '<li>';
        kids();
        html += '</li>';
        return;
      case 'table':
        html += '<table>';
        kids();
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
      case 'object':
        html += formulaHtml(n.attribs['xlink:href'] ?? '', objectXml);
        return;
      case 'section':
      case 'text-box':
        html += '<div>';
        kids();
        html += '</div>';
        return;
      default:
        kids();
    }
  };
  text.children.forEach(visit);
  return html;
}

export const partitionOdt: FormatPartitioner = async (data, ctx) => {
  // the document and its embedded objects' content (formulas)
  const files = readZip(data, 'odt', (n) => n === 'content.xml' || /^[^/]+\/content\.xml$/.test(n));
  const xml = zipText(files, 'content.xml');
  if (!xml) throw new UnprocessableDocument('odt: content.xml is missing (not an OpenDocument text?)');
  try {
    return htmlToElements(odtToHtml(xml, (path) => zipText(files, path)), { shortText: 'title', languages: ctx.options.languages });
  } catch (err) {
    return corrupt('odt', err);
  }
};
