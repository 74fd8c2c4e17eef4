// Words in ruled-table cells under each way a PDF can place its glyphs (issue 29: identifiers cut
// between two cells, "F UN" | "CTION_ID"). Each PDF is built here (test/support/table-pdf.ts) with
// cells sized from the widths the PDF itself declares, so every identifier lies inside its cell.
// Measured on PDFium: text and page transforms (Tm, cm, a form's /Matrix), a media box off the
// origin, a crop box, horizontal scaling (Tz), character spacing, Widths, standard metrics and Type3
// FontMatrix are all placed right. What broke words was tracking: TJ adjustments between glyphs
// wider than ~0.12 em make PDFium generate a space at every such gap ("F U N C T I O N _ I D"), and
// kerning that varies around that threshold cut a word into pieces that a rule can then separate.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { glueTracked } from '../../../../lambdas/engine/partition/pdf/tracking';
import type { ScriptWord } from '../../../../lambdas/engine/partition/pdf/scripts';
import { tablePdf, textWidth, type PageOptions } from '../../../support/table-pdf';

after(async () => { await shutdownPagePool(); });

const ROWS = [
  ['Name', 'Offset', 'Description'],
  ['FUNCTION_ID', '0x00', 'Identifies the function'],
  ['REGISTER_ADDR_MASK', '0x04', 'Mask of the address bits'],
  ['STATUS_FLAGS_EXTENDED', '0x08', 'Extended status word'],
  ['INTERRUPT_ENABLE', '0x0C', 'Enables interrupts'],
];

/** The cells of the page's one Table, row by row, from its text_as_html. */
async function cells(pdf: Uint8Array): Promise<string[][]> {
  const r = await partition({ data: pdf, filename: 't.pdf' }, { strategy: 'fast' });
  const tables = r.elements.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, `one table: ${r.elements.map((e) => `${e.type}: ${e.text}`).join(' | ')}`);
  return [...tables[0]!.metadata.text_as_html!.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!));
}

describe('ruled-table cells keep whole words however the glyphs are placed', () => {
  const cases: Record<string, PageOptions> = {
    'text matrix scaling a 1-pt font (Tm)': { textMatrix: true },
    'page scaled up by cm': { cm: 2 },
    'page scaled down by cm': { cm: 0.5 },
    'media box off the origin': { mediaOrigin: [-150, 200] },
    'crop box inside a larger media box': { cropOrigin: [80, 120] },
    'table inside a form XObject with a /Matrix, under cm and a crop box': { cm: 1.5, form: [1, 0, 0, 1, 30, -40, 12, 25], cropOrigin: [20, 30] },
    'horizontal scaling 80% (Tz)': { tz: 80 },
    'horizontal scaling 130% (Tz) with a text matrix': { tz: 130, textMatrix: true },
    'character spacing (Tc) with Tz and Tm': { tc: 1.5, tz: 70, textMatrix: true, cm: 2 },
    'a font with a Widths array': { font: 'widths' },
    'a standard font without Widths': { font: 'standard' },
    'a Type3 font (FontMatrix 1/1000)': { font: 'type3' },
    'a Type3 font (FontMatrix 1/100) with Tz, Tm, cm and a crop box': { font: 'type3-coarse', tz: 85, textMatrix: true, cm: 1.5, cropOrigin: [30, 40] },
    'each glyph positioned on its own, condensed': { perGlyph: true, tz: 75 },
    'tracked text: 0.15 em between all glyphs (TJ)': { kern: -150 },
    'tracked text with Tz and a Type3 font': { kern: -200, tz: 70, font: 'type3-coarse' },
  };
  for (const [name, options] of Object.entries(cases)) {
    it(name, async () => {
      assert.deepEqual(await cells(tablePdf([{ tables: [{ rows: ROWS, pad: 3 }], options }])), ROWS);
    });
  }

  it('identifiers kerned around the space threshold keep no space inside, and one running over a rule stays whole', async () => {
    // 0.15-0.16 em after some glyphs, 0.03-0.04 em after others: PDFium cuts "F UN CTION_ID". (Only
    // capitals, digits and underscores are joined across such narrow gaps: the glyph boxes of
    // justified lower-case prose stand as close.)
    const options: PageOptions = { kern: [-150, -40, -160, -30, -30, -40, -30] };
    const rows = [['NAME', 'Offset', 'Description'], ['FUNCTION_ID', '0x00', 'Identifies the function'], ['STATUS_FLAGS', '0x08', 'Extended status word']];
    // The first column is 2 pt wider than its longest identifier, which starts 8 pt in: the last
    // ~6 pt of it are drawn past the rule (before the next cell's text).
    const w = Math.max(textWidth('FUNCTION_ID', options), textWidth('STATUS_FLAGS', options));
    assert.deepEqual(await cells(tablePdf([{ tables: [{ rows, colWidths: [w + 2, 40, 120], pad: 8, kernCols: [0] }], options }])), rows);
  });
});

describe('tracked-text gluing on PDFium-like pieces', () => {
  const piece = (t: string, x0: number, x1: number, gen = true): ScriptWord => ({ t, box: [x0, 100, x1, 110], turn: 0, size: 10, gen });
  it('glues evenly tracked single glyphs and caps pieces across narrow gaps, not justified prose', () => {
    const tracked = [piece('T', 0, 6, false), piece('I', 7.5, 9), piece('T', 10.5, 16.5), piece('L', 18, 23.5), piece('E', 25, 31)];
    glueTracked(tracked, () => undefined);
    assert.deepEqual(tracked.map((w) => !!w.glue), [false, true, true, true, true]);
    const ident = [piece('F', 0, 6, false), piece('UN', 7.5, 20), piece('CTION_ID', 21.5, 70)];
    glueTracked(ident, () => 0.3);
    assert.deepEqual(ident.map((w) => !!w.glue), [false, true, true]);
    // "of the" with glyph boxes 0.05-0.16 em apart in a justified two-column paper: words.
    const prose = [piece('lord', 0, 18, false), piece('of', 19.6, 27), piece('the', 27.5, 40), piece('a', 43, 48)];
    glueTracked(prose, () => 0);
    assert.deepEqual(prose.map((w) => !!w.glue), [false, false, false, false]);
  });
});
