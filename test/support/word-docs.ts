// Builders for small WordprocessingML (.docx) documents in tests: paragraphs with style, numbering,
// outline level and run formatting, tables, DrawingML and VML text boxes, and the styles part.
import { zipSync, strToU8 } from 'fflate';

export const W_NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ' +
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" ' +
  'xmlns:v="urn:schemas-microsoft-com:vml"';

export interface ParaOptions {
  style?: string;
  /** list level: a w:numPr with numId 1 */
  num?: number;
  outline?: number;
  bold?: boolean;
  /** font size in half-points */
  size?: number;
  /** extra run content placed after the text run (e.g. a text box) */
  after?: string;
}

export function wPara(text: string, o: ParaOptions = {}): string {
  const pPr =
    (o.style ? `<w:pStyle w:val="${o.style}"/>` : '') +
    (o.num !== undefined ? `<w:numPr><w:ilvl w:val="${o.num}"/><w:numId w:val="1"/></w:numPr>` : '') +
    (o.outline !== undefined ? `<w:outlineLvl w:val="${o.outline}"/>` : '');
  const rPr = (o.bold ? '<w:b/>' : '') + (o.size ? `<w:sz w:val="${o.size}"/>` : '');
  const run = text ? `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>` : '';
  return `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${run}${o.after ?? ''}</w:p>`;
}

export function wTable(rows: string[][]): string {
  return `<w:tbl>${rows.map((r) => `<w:tr>${r.map((c) => `<w:tc>${c}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
}

/** A DrawingML shape with a text box holding `content` (w:p / w:tbl blocks), in a run. */
export function drawingBox(content: string): string {
  return '<w:r><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx>' +
    `<w:txbxContent>${content}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
}

/** A VML shape with a text box holding `content`, in a run. */
export function vmlBox(content: string): string {
  return `<w:r><w:pict><v:shape><v:textbox><w:txbxContent>${content}</w:txbxContent></v:textbox></v:shape></w:pict></w:r>`;
}

/** What Word writes: the DrawingML box as mc:Choice and the same box in VML as mc:Fallback. */
export function alternateBox(content: string): string {
  const inner = (x: string): string => x.replace(/^<w:r>|<\/w:r>$/g, '');
  return `<w:r><mc:AlternateContent><mc:Choice Requires="wps">${inner(drawingBox(content))}</mc:Choice>` +
    `<mc:Fallback>${inner(vmlBox(content))}</mc:Fallback></mc:AlternateContent></w:r>`;
}

export interface StyleDef {
  id: string;
  name: string;
  basedOn?: string;
  outline?: number;
  bold?: boolean;
  size?: number;
  numbered?: boolean;
  isDefault?: boolean;
}

export function stylesXml(styles: StyleDef[], bodySize?: number): string {
  const defaults = bodySize ? `<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="${bodySize}"/></w:rPr></w:rPrDefault></w:docDefaults>` : '';
  const one = (s: StyleDef): string => {
    const pPr = (s.numbered ? '<w:numPr><w:numId w:val="3"/></w:numPr>' : '') + (s.outline !== undefined ? `<w:outlineLvl w:val="${s.outline}"/>` : '');
    const rPr = (s.bold ? '<w:b/>' : '') + (s.size ? `<w:sz w:val="${s.size}"/>` : '');
    return `<w:style w:type="paragraph"${s.isDefault ? ' w:default="1"' : ''} w:styleId="${s.id}"><w:name w:val="${s.name}"/>` +
      `${s.basedOn ? `<w:basedOn w:val="${s.basedOn}"/>` : ''}${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}</w:style>`;
  };
  return `<w:styles ${W_NS}>${defaults}${styles.map(one).join('')}</w:styles>`;
}

/** A chart as Word draws it in a run: an inline drawing whose graphic names the chart part by `rid`. */
export function drawingChart(rid: string): string {
  return '<w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Chart 1"/><a:graphic>' +
    '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
    `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${rid}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

/** A .docx of `body`; `parts` are more package parts by path (a chart part and word/_rels/document.xml.rels, say). */
export function docxFile(body: string, styles?: string, parts: Record<string, string> = {}): Uint8Array {
  return zipSync({
    'word/document.xml': strToU8(`<?xml version="1.0"?><w:document ${W_NS}><w:body>${body}</w:body></w:document>`),
    ...(styles ? { 'word/styles.xml': strToU8(styles) } : {}),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v)])),
  });
}
