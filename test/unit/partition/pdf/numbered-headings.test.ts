// Numbered section headings in PDFs (issue 29): "1. Overview" set larger than the body is a section
// title with its depth, not a list item; a numbered list in the body's size stays a list. So is a
// bold one in the body's size alone on its line, which needs bold told right (a font's StemV).
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { PdfDocument } from '../../../../lambdas/engine/partition/pdf/pdfium';
import { extractPage } from '../../../../lambdas/engine/partition/pdf/extract';
import { onePagePdf } from '../../../support/pdf-writer';
import { reportPdf } from '../../../support/report-pdf';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import { typeset } from '../../../support/page-words';

after(async () => { await shutdownPagePool(); });

it('numbered headings set larger are titles under the document title; numbered body lines are list items', async () => {
  const data = reportPdf([
    ['Annual Report of the Offices', 22, true],
    ['1. Overview', 15, true],
    ['The offices handled more requests than in the first year of their work.', 10, false],
    ['2. Priorities', 15, true],
    ['1. Open a third office in the north.', 10, false],
    ['2. Move all the forms online.', 10, false],
  ]);
  const { elements } = await partition({ data, filename: 'report.pdf' }, { strategy: 'fast' });
  const type = (t: string) => elements.find((e) => e.text === t)?.type;
  assert.equal(type('1. Overview'), 'Title');
  assert.equal(type('2. Priorities'), 'Title');
  assert.equal(type('1. Open a third office in the north.'), 'ListItem');
  assert.equal(type('2. Move all the forms online.'), 'ListItem');
  const top = elements.find((e) => e.text === 'Annual Report of the Offices')!;
  const overview = elements.find((e) => e.text === '1. Overview')!;
  assert.equal(overview.metadata.parent_id, top.element_id, 'a section under the document title');
});

it('a numbered heading set bold in the body size, on a line of its own, is a title; a bold numbered step with a sentence is a list item', async () => {
  const data = reportPdf([
    ['1. Introduction', 10, true],
    ['Storage arrays are sold on their peak throughput, but real workloads mix reads and writes.', 10, false],
    ['2. Install the package and restart the server.', 10, true],
    ['3. Results', 10, true],
    ['The mixed figure is close to the harmonic mean of the read and the write figures.', 10, false],
  ]);
  const { elements } = await partition({ data, filename: 'report.pdf' }, { strategy: 'fast' });
  const type = (t: string) => elements.find((e) => e.text === t)?.type;
  assert.equal(type('1. Introduction'), 'Title', JSON.stringify(elements.map((e) => [e.type, e.text])));
  assert.equal(type('3. Results'), 'Title');
  assert.equal(type('2. Install the package and restart the server.'), 'ListItem');
});

it('a face named Roman is not bold though its descriptor\'s stem width says so (Ghostscript\'s Times-Roman: StemV 139)', async () => {
  const widths = `/FirstChar 32 /LastChar 126 /Widths [${Array.from({ length: 95 }, (_, i) => 400 + 100 * (i % 3)).join(' ')}]`;
  const font = (name: string, desc: number) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} ${widths} /FontDescriptor ${desc} 0 R >>`;
  const descriptor = (name: string, stem: number) => `<< /Type /FontDescriptor /FontName /${name} /Flags 34 /FontBBox [0 -218 932 688] /ItalicAngle 0 /Ascent 688 /Descent -218 /CapHeight 676 /StemV ${stem} >>`;
  const content = ['BT /F1 10 Tf 72 700 Td (Regular text set in the roman face of the font.) Tj ET', 'BT /F2 10 Tf 72 680 Td (A bold line) Tj ET', 'BT /F3 10 Tf 72 660 Td (A face named for nothing) Tj ET'].join('\n');
  // fonts are objects 4-6, the content 7, the descriptors 8-10 (onePagePdf)
  const pdf = onePagePdf(content, [font('ABCDEF+Times-Roman', 8), font('ABCDEF+Times-Bold', 9), font('ABCDEF+F3', 10)],
    [descriptor('ABCDEF+Times-Roman', 139), descriptor('ABCDEF+Times-Bold', 169), descriptor('ABCDEF+F3', 169)]);
  const doc = await PdfDocument.open(pdf);
  try {
    const words = extractPage(doc, 0, { images: false, links: false }).lines.flatMap((l) => l.segs.flatMap((s) => s.words));
    const bold = (t: string) => words.find((w) => w.t === t)?.bold;
    assert.equal(bold('Regular'), false);
    assert.equal(bold('bold'), true);
    assert.equal(bold('nothing'), true, 'a name that says nothing: the estimate from the stem width stands');
  } finally { doc.close(); }
});

it('a heading in small capitals whose word reads as a verb is a title; a caption\'s label over its small-capital text is one caption', async () => {
  // IEEE's section headings and table captions are set in small capitals: "II. RELATED WORK" read as a
  // sentence ("related" a verb), and "TABLE I" (8 pt) over "DRIFT BY SENSOR TYPE" (6.4 pt small
  // capitals) split as a larger heading over smaller text: two Titles
  const data = onePagePdf([
    'BT /F1 10 Tf 72 700 Td (II. R) Tj /F1 8 Tf (ELATED ) Tj /F1 10 Tf (W) Tj /F1 8 Tf (ORK) Tj ET',
    'BT /F1 10 Tf 72 680 Td (Earlier work measured the drift of each sensor against a reference gauge.) Tj ET',
    'BT /F1 8 Tf 150 640 Td (TABLE I) Tj ET',
    'BT /F1 8 Tf 128 631 Td (DRIFT) Tj /F1 6.4 Tf ( BY SENSOR TYPE) Tj ET',
    'BT /F1 10 Tf 72 600 Td (The drift of the pressure sensors is the largest of the three kinds.) Tj ET',
  ].join('\n'), ['<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>']);
  const { elements } = await partition({ data, filename: 'ieee.pdf' }, { strategy: 'fast' });
  const out = elements.map((e) => [e.type, e.text]);
  assert.ok(out.some(([t, x]) => t === 'Title' && x === 'II. RELATED WORK'), JSON.stringify(out));
  assert.ok(out.some(([t, x]) => t === 'FigureCaption' && x === 'TABLE I DRIFT BY SENSOR TYPE'), JSON.stringify(out));
});

it('an italic numbered subsection heading in the text\'s size is a title over its paragraph; an italic note over its text stays in it', () => {
  // a journal's third-level heading: italic, numbered, set right over its section's first line
  const set = typeset({ size: 9, char: 4.5, space: 2.5 });
  const italic = (text: string, x: number, y: number) => set(text, x, y).map((w) => ({ ...w, italic: true }));
  const words = [
    ...italic('2.2. Field measurements', 60, 100),
    ...set('Between October and September we collected the following data at', 60, 112, 360),
    ...set('each of the three sites of the study every week.', 60, 124),
    ...italic('(Scribbled in the corner)', 60, 150),
    ...set('Never even saw the thing, but a sword would take care of it for good', 60, 162, 360),
    ...set('and no one would be any the wiser.', 60, 174),
  ];
  const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
  assert.deepEqual(els.map((e) => `${e.type}: ${e.text}`), [
    'Title: 2.2. Field measurements',
    'NarrativeText: Between October and September we collected the following data at each of the three sites of the study every week.',
    'NarrativeText: (Scribbled in the corner) Never even saw the thing, but a sword would take care of it for good and no one would be any the wiser.',
  ]);
});
