// DrawingML chart parts (c:chartSpace) and a one-slide-per-chart pptx around them, for the chart tests:
// series with cached names, categories (or scatter x values) and values, as PowerPoint and Excel write them;
// and OpenDocument chart objects (ods, odp).
import { strToU8, zipSync } from 'fflate';

export interface ChartSeries {
  name?: string;
  /** Category labels (strCache), or the x values of a scatter series. */
  cats?: (string | number)[];
  /** The number format of numeric categories (a date axis: "m/d/yyyy"); General when unsaid. */
  catFormat?: string;
  vals: (number | string)[];
}

export interface ChartSpec {
  /** The chart kind of the plot area: barChart, lineChart, pieChart, areaChart, scatterChart, bar3DChart ... */
  kind?: string;
  title?: string;
  /** An axis title (not the chart's). */
  axisTitle?: string;
  series: ChartSeries[];
  /** Serial dates count from 1904 (c:date1904). */
  date1904?: boolean;
}

const C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const rich = (t: string): string => `<c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(t)}</a:t></a:r></a:p></c:rich></c:tx>`;
const pts = (vs: (string | number)[]): string => `<c:ptCount val="${vs.length}"/>${vs.map((v, i) => `<c:pt idx="${i}"><c:v>${esc(String(v))}</c:v></c:pt>`).join('')}`;

export function chartXml(spec: ChartSpec): string {
  const kind = spec.kind ?? 'barChart';
  const scatter = kind === 'scatterChart' || kind === 'bubbleChart';
  const ser = spec.series
    .map((s, k) => {
      const tx = s.name === undefined ? '' : `<c:tx><c:strRef><c:f>Sheet1!$${String.fromCharCode(66 + k)}$1</c:f><c:strCache>${pts([s.name])}</c:strCache></c:strRef></c:tx>`;
      const catTag = scatter ? 'xVal' : 'cat';
      const cat = s.cats
        ? typeof s.cats[0] === 'number'
          ? `<c:${catTag}><c:numRef><c:f>Sheet1!$A$2</c:f><c:numCache><c:formatCode>${esc(s.catFormat ?? 'General')}</c:formatCode>${pts(s.cats)}</c:numCache></c:numRef></c:${catTag}>`
          : `<c:${catTag}><c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache>${pts(s.cats)}</c:strCache></c:strRef></c:${catTag}>`
        : '';
      const valTag = scatter ? 'yVal' : 'val';
      const val = `<c:${valTag}><c:numRef><c:f>Sheet1!$B$2</c:f><c:numCache><c:formatCode>General</c:formatCode>${pts(s.vals)}</c:numCache></c:numRef></c:${valTag}>`;
      return `<c:ser><c:idx val="${k}"/><c:order val="${k}"/>${tx}<c:spPr/>${cat}${val}</c:ser>`;
    })
    .join('');
  const title = spec.title === undefined ? '' : `<c:title>${rich(spec.title)}<c:overlay val="0"/></c:title>`;
  const axis = `<c:catAx><c:axId val="1"/>${spec.axisTitle ? `<c:title>${rich(spec.axisTitle)}</c:title>` : ''}<c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:crossAx val="1"/></c:valAx>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace ${C}>${spec.date1904 ? '<c:date1904 val="1"/>' : ''}<c:lang val="en-US"/><c:chart>${title}<c:autoTitleDeleted val="0"/><c:plotArea><c:layout/><c:${kind}><c:varyColors val="0"/>${ser}<c:axId val="1"/><c:axId val="2"/></c:${kind}>${axis}</c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>`;
}

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const rels = (body: string): Uint8Array => strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`);
const rel = (id: string, target: string, type = 'x'): string => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`;

/** A graphicFrame holding the chart of relationship `rid`, at y. */
export function chartFrame(rid: string, y = 1463040): string {
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="Chart 2"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="914400" y="${y}"/><a:ext cx="7315200" cy="4389120"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${rid}"/></a:graphicData></a:graphic></p:graphicFrame>`;
}

/** One slide per chart: a title placeholder (top) and the chart's graphicFrame below it. */
export function pptxWithCharts(slides: { title: string; chart: string }[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  slides.forEach((s, k) => {
    const n = k + 1;
    const title = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>${esc(s.title)}</a:t></a:r></a:p></p:txBody></p:sp>`;
    files[`ppt/slides/slide${n}.xml`] = strToU8(`<p:sld ${P}><p:cSld><p:spTree>${chartFrame('rId2')}${title}</p:spTree></p:cSld></p:sld>`);
    files[`ppt/slides/_rels/slide${n}.xml.rels`] = rels(rel('rId2', `../charts/chart${n}.xml`, 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart'));
    files[`ppt/charts/chart${n}.xml`] = strToU8(s.chart);
  });
  files['ppt/presentation.xml'] = strToU8(`<p:presentation ${P}><p:sldIdLst>${slides.map((_, k) => `<p:sldId id="${256 + k}" r:id="rId${k + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`);
  files['ppt/_rels/presentation.xml.rels'] = rels(slides.map((_, k) => rel(`rId${k + 1}`, `slides/slide${k + 1}.xml`)).join(''));
  return zipSync(files);
}

/** An OpenDocument chart object as LibreOffice writes it: title, series ranges into its local table. */
export function odfChart(title: string, plot: string, rows: (string | number | null)[][]): string {
  const cell = (v: string | number | null) => v === null ? '<table:table-cell/>'
    : typeof v === 'number' ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`
      : `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
  const [head, ...body] = rows;
  return '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
    + `<office:body><office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>${title}</text:p></chart:title>`
    + `<chart:plot-area>${plot}</chart:plot-area>`
    + `<table:table table:name="local-table"><table:table-header-rows><table:table-row>${head!.map(cell).join('')}</table:table-row></table:table-header-rows>`
    + `<table:table-rows>${body.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('')}</table:table-rows></table:table>`
    + '</chart:chart></office:chart></office:body></office:document-content>';
}
