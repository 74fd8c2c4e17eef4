// Right-to-left scripts in PDFs (Hebrew, Arabic): text in logical order, numbers and Latin runs left
// to right inside it, one element per paragraph of right-aligned lines. The test PDFs draw their
// glyphs left to right in visual order, as producers do (or glyph by glyph in logical order), with
// a ToUnicode map onto RTL code points (test/support/cjk-pdf.ts: no font file needed).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { partitionDocument as partition } from '../../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../../lambdas/engine/partition/pdf/pool';
import { ocrPageElements } from '../../../../lambdas/engine/partition/ocr/layout';
import { pairedBrackets } from '../../../../lambdas/engine/partition/pdf/bidi';
import { cjkPdf, type PageSpec, type Run } from '../../../support/cjk-pdf';

after(async () => { await shutdownPagePool(); });

const SIZE = 12;
/** Advance of a text in the test font: one em a glyph, ASCII half, a space a quarter. */
const width = (t: string, size = SIZE) => [...t].reduce((w, ch) => w + (ch === ' ' ? 0.25 : ch < '\u0080' ? 0.5 : 1) * size, 0);
/** A word of an RTL script as drawn left to right. */
const mirror = (w: string) => [...w].reverse().join('');
/** A line drawn left to right from its words in visual order (RTL words mirrored), ending at `right`. */
const line = (visualWords: string[], right: number, y: number, size = SIZE): Run => {
  const text = visualWords.map((w) => (/[\u0590-\u08ff\ue000]/u.test(w) ? mirror(w) : w)).join(' ');
  return { text, x: right - width(text, size), y, size };
};
/** Lines 1.7 text sizes apart (Hebrew and Arabic fonts set lines further apart than Latin ones). */
const PITCH = 1.7 * SIZE;

const texts = async (pages: PageSpec[], ligatures?: Record<string, string>) =>
  (await partition({ data: cjkPdf(pages, { ligatures }), filename: 'rtl.pdf' }, { strategy: 'fast' })).elements.map((e) => e.text);

describe('right-to-left text in PDFs', () => {
  it('reads a paragraph of right-aligned Hebrew lines in logical order, as one element', async () => {
    const t = await texts([{ runs: [
      line(['ארוכה', 'בפסקה', 'ראשון', 'משפט', 'זהו'], 500, 760),
      line(['הטקסט', 'של', 'השנייה', 'בשורה', 'שממשיך'], 500, 760 - PITCH),
      line(['כאן.', 'ומסתיים'], 500, 760 - 2 * PITCH),
      line(['כאן', 'מתחילה', 'שנייה', 'פסקה'], 500, 760 - 4 * PITCH),
    ] }]);
    assert.deepEqual(t, ['זהו משפט ראשון בפסקה ארוכה שממשיך בשורה השנייה של הטקסט ומסתיים כאן.', 'פסקה שנייה מתחילה כאן']);
  });

  it('reads a paragraph of Hebrew lines set flush left (a converter\'s alignment) as one element, its short last line included', async () => {
    /** A line drawn from x = 60 on. */
    const left = (visualWords: string[], y: number): Run => ({ ...line(visualWords, 0, y), x: 60 });
    const t = await texts([{ runs: [
      left(['ארוכה', 'בפסקה', 'ראשון', 'משפט', 'זהו', 'ארוכה', 'בפסקה', 'ראשון', 'משפט', 'זהו'], 760),
      left(['07:30', 'בשעה'], 760 - PITCH),
      left(['כאן', 'מתחילה', 'שנייה', 'פסקה'], 760 - 3 * PITCH),
    ] }]);
    assert.deepEqual(t, ['זהו משפט ראשון בפסקה ארוכה זהו משפט ראשון בפסקה ארוכה בשעה 07:30', 'פסקה שנייה מתחילה כאן']);
  });

  it('keeps numbers and Latin runs left to right inside an RTL line', async () => {
    const t = await texts([{ runs: [
      line(['בשימוש', 'ועדיין', '2008', 'בשנת', 'יצאה', 'Python', '3', 'גרסה'], 500, 760),
      line(['נפוצות', 'pandas', 'and', 'numpy', 'הספריות'], 500, 700),
      line(['2024', '-', '2020', 'בשנים'], 500, 640),
    ] }]);
    assert.deepEqual(t, ['גרסה Python 3 יצאה בשנת 2008 ועדיין בשימוש', 'הספריות pandas and numpy נפוצות', 'בשנים 2020 - 2024']);
  });

  it('turns a right-to-left run\'s bracket pairs the right way round, whether the text layer mirrored them or not', async () => {
    // PDFium mirrors the brackets of this producer's lines, but not the ones inside a Hebrew word
    // ("]ראו[": the glyphs drawn), nor a browser's or LibreOffice's (") 2025 (")
    const t = await texts([{ runs: [line(['עלו', '(2024)', 'בשנת', '[ראו]', 'המספרים'], 500, 760)] }]);
    assert.deepEqual(t, ['המספרים [ראו] בשנת ( 2024 ) עלו']);
    assert.equal(pairedBrackets('נוצר ) 2025 ( ונבדק ]שוב['), 'נוצר ( 2025 ) ונבדק [שוב]');
    assert.equal(pairedBrackets('(א) ו-(ב) [ג]'), '(א) ו-(ב) [ג]');
  });

  it('reads RTL text stored glyph by glyph in logical order', async () => {
    const t = await texts([{ runs: [{ text: 'שלום עולם ומלואו', x: 500, y: 760, size: SIZE, step: -SIZE }] }]);
    assert.deepEqual(t, ['שלום עולם ומלואו']);
  });

  it('keeps the letters of an Arabic ligature in order (PDFium reverses a glyph\'s characters)', async () => {
    // U+E000 draws the lam-alef ligature; its ToUnicode entry is lam, alef.
    const t = await texts([{ runs: [line(['\u0627\u0644\u0645\u0634\u0643\ue000\u062a', '\u062d\u0644\u0648\u0644'], 500, 760)] }], { '\ue000': '\u0644\u0627' });
    assert.deepEqual(t, ['\u062d\u0644\u0648\u0644 \u0627\u0644\u0645\u0634\u0643\u0644\u0627\u062a']);
  });

  it('reads the right column of an RTL page first', async () => {
    const t = await texts([{ runs: [
      line(['שמאל', 'בצד', 'טור'], 260, 760),
      line(['השמאלי', 'הטור', 'המשך'], 260, 760 - PITCH),
      line(['ימין', 'בצד', 'טור'], 540, 760),
      line(['הימני', 'הטור', 'המשך'], 540, 760 - PITCH),
    ] }]);
    assert.deepEqual(t, ['טור בצד ימין המשך הטור הימני', 'טור בצד שמאל המשך הטור השמאלי']);
  });

  it('keeps a stretched gap of a justified RTL line inside its paragraph', async () => {
    // Justified lines of one width; the middle one has a gap of 1.5 text sizes between two words.
    const rtl = await texts([{ runs: [
      line(['מאוד', 'ארוכה', 'פסקה', 'של', 'ראשונה', 'שורה', 'היא', 'זאת'], 500, 760),
      line(['מאוד', 'ארוכה', 'שורה'], 500, 760 - PITCH),
      line(['אחריה', 'שבאה', 'והשנייה'], 500 - width('מאוד ארוכה שורה') - 1.5 * SIZE, 760 - PITCH),
      line(['ממש', 'סוף', 'עד', 'הפסקה', 'של', 'השלישית', 'והשורה', 'כאן'], 500, 760 - 2 * PITCH),
    ] }]);
    assert.deepEqual(rtl, ['זאת היא שורה ראשונה של פסקה ארוכה מאוד שורה ארוכה מאוד והשנייה שבאה אחריה כאן והשורה השלישית של הפסקה עד סוף ממש']);
  });

  it('keeps the stretched gaps of two justified RTL lines in a row inside their paragraph', async () => {
    // Both middle lines have one wide gap, at different places; they end at the same edge, as every
    // line of a justified paragraph does: that is no table column.
    const rtl = await texts([{ runs: [
      line(['מאוד', 'ארוכה', 'פסקה', 'של', 'ראשונה', 'שורה', 'היא', 'זאת'], 500, 760),
      line(['מאוד', 'ארוכה', 'שורה'], 500, 760 - PITCH),
      line(['אחריה', 'שבאה', 'והשנייה'], 500 - width('מאוד ארוכה שורה') - 1.5 * SIZE, 760 - PITCH),
      line(['השלישית'], 500, 760 - 2 * PITCH),
      line(['כך', 'נמשכת', 'הזאת', 'הפסקה', 'של', 'והשורה'], 500 - width('השלישית') - 1.6 * SIZE, 760 - 2 * PITCH),
      line(['ממש', 'סוף', 'עד', 'הפסקה', 'של', 'הרביעית', 'והשורה', 'כאן'], 500, 760 - 3 * PITCH),
    ] }]);
    assert.equal(rtl.length, 1, JSON.stringify(rtl));
  });

  it('keeps a stretched gap of a justified Latin line inside its paragraph', async () => {
    const x = 72, y = 760;
    const latin = await texts([{ runs: [
      { text: 'This is the first line of a paragraph that is set in full', x, y, size: SIZE },
      { text: 'justified type whose', x, y: y - 14, size: SIZE },
      { text: 'middle line has a stretched gap', x: x + width('justified type whose') + 1.5 * SIZE, y: y - 14, size: SIZE },
      { text: 'and it goes on for one more line of text until the end.', x, y: y - 28, size: SIZE },
    ] }]);
    assert.deepEqual(latin, ['This is the first line of a paragraph that is set in full justified type whose middle line has a stretched gap and it goes on for one more line of text until the end.']);
  });

  it('reads OCR words of an RTL line in logical order, whatever order the OCR gives them in', () => {
    const word = (text: string, x0: number, x1: number, y = 100) => ({ text, confidence: 95, x0, x1, y0: y, y1: y + 30 });
    const els = ocrPageElements({ confidence: 95, lines: [
      // reading order (right to left), as Tesseract gives an RTL line
      { words: [word('שלום', 800, 900), word('עולם', 680, 780), word('Python', 500, 660), word('3', 470, 490)], x0: 470, y0: 100, x1: 900, y1: 130 },
      // left to right
      { words: [word('2024', 470, 560, 300), word('בשנת', 580, 680, 300), word('נכתב', 700, 800, 300)], x0: 470, y0: 300, x1: 800, y1: 330 },
    ] }, 1, 1000, 1000, { coordinates: false, languages: ['heb'], tableHtml: false });
    assert.deepEqual(els.map((e) => e.text), ['שלום עולם Python 3', 'נכתב בשנת 2024']);
  });
});

describe('right-to-left text: bad input stays bounded', () => {
  it('reads a page of thousands of tiny RTL fragments mixed with numbers and Latin in bounded time', async () => {
    const runs: Run[] = [];
    const pieces = ['א', 'בג', '12', 'x', 'ד', '٣', 'ab', 'ه', 'لا', '-', '(', ')'];
    for (let i = 0; i < 6000; i++) {
      const text = pieces[(i * 7) % pieces.length]!;
      runs.push({ text, x: 20 + ((i * 37) % 540), y: 20 + ((i * 13) % 800) + (i % 3) * 0.3, size: 2 + (i % 4) });
    }
    // one long line mixing everything, and a glyph-by-glyph line running backwards
    runs.push({ text: Array.from({ length: 400 }, (_, i) => pieces[i % pieces.length]).join(' '), x: 10, y: 830, size: 1 });
    runs.push({ text: 'אב12cd'.repeat(300), x: 580, y: 835, size: 1, step: -0.9 });
    const started = Date.now();
    const r = await partition({ data: cjkPdf([{ runs }]), filename: 'fragments.pdf' }, { strategy: 'fast' });
    const secs = (Date.now() - started) / 1000;
    assert.ok(secs < 30, `${secs} s`);
    const all = r.elements.map((e) => e.text).join(' ');
    assert.ok((all.match(/[\u0590-\u05ff]/gu) ?? []).length > 1000, 'the Hebrew letters are read');
  });
});

describe('right-to-left tables in PDFs', () => {
  it('lists a Hebrew table\'s cells from its right-hand column, in the text and in the HTML', async () => {
    // Three columns of words: the rightmost holds each row's first cell (a name), then a city, then a
    // number at the left. The cells are far enough apart to be columns, not stretched spaces.
    const rows = [['שם', 'עיר', 'גיל'], ['דוד', 'חיפה', '31'], ['שרה', 'אילת', '27'], ['משה', 'עכו', '45'], ['רחל', 'צפת', '38']];
    const runs: Run[] = rows.flatMap((r, i) => r.map((cell, c) => line([cell], 500 - c * 120, 700 - i * PITCH)));
    const r = await partition({ data: cjkPdf([{ runs: [line(['טבלה', 'לפני', 'פסקה'], 500, 760), ...runs] }]), filename: 'rtl-table.pdf' }, { strategy: 'fast' });
    const table = r.elements.find((e) => e.type === 'Table');
    assert.ok(table, JSON.stringify(r.elements.map((e) => [e.type, e.text])));
    assert.equal(table.text, rows.flat().join(' '));
    const html = String(table.metadata.text_as_html);
    assert.ok(html.includes('<tr><td>שם</td><td>עיר</td><td>גיל</td></tr>') || html.includes('<tr><th>שם</th><th>עיר</th><th>גיל</th></tr>'), html);
    assert.ok(html.includes('<tr><td>דוד</td><td>חיפה</td><td>31</td></tr>'), html);
  });
});

describe('a right-to-left table set close (a browser\'s, a few points of cell padding)', () => {
  it('is found by its cells\' right edges and read cell by cell from its right-hand column', async () => {
    // cells right-aligned in their columns (right edges 500, 372, 319, 278), 5 points past the widest
    // cell of the column to their right: the header's last three words are one segment, the longest
    // name runs into its row's figure, and the first header is centred over the names
    const cell = (logical: string, right: number, y: number): Run => line(logical.split(' ').reverse(), right, y);
    const rows = [['בריכה', 'אביב', 'קיץ', 'סתיו'], ['טחנה', '12', '30', '18'], ['מים רבים', '7', '21', '9'], ['כנסייה ישנה', '3', '11', '4']];
    const rights = [500, 372, 319, 278];
    const runs = rows.flatMap((r, i) => r.map((c, k) => cell(c, i === 0 && k === 0 ? 468.5 : rights[k]!, 700 - i * PITCH)));
    const r = await partition({ data: cjkPdf([{ runs: [line(['הבריכות', 'בכל', 'הספירות'], 500, 760), ...runs] }]), filename: 'rtl-close.pdf' }, { strategy: 'fast' });
    const table = r.elements.find((e) => e.type === 'Table');
    assert.ok(table, JSON.stringify(r.elements.map((e) => [e.type, e.text])));
    const html = String(table.metadata.text_as_html);
    assert.deepEqual([...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1])), rows, html);
  });
});

describe('right_to_left_01.pdf (docling set)', () => {
  it('reads the Arabic title and paragraphs in logical order, with ligatures and marks in place', async () => {
    const file = resolve(import.meta.dirname, '../../../../../shared/corpus/docling/docs/right_to_left_01.pdf');
    assert.ok(existsSync(file), `missing ${file}`);
    const r = await partition({ data: new Uint8Array(readFileSync(file)), filename: 'right_to_left_01.pdf' }, { strategy: 'fast' });
    const t = r.elements.map((e) => e.text);
    assert.equal(t[0], '\u062a\u062d\u0633\u064a\u0646 \u0627\u0644\u0625\u0646\u062a\u0627\u062c\u064a\u0629 \u0648\u062d\u0644 \u0627\u0644\u0645\u0634\u0643\u0644\u0627\u062a \u0645\u0646 \u062e\u0644\u0627\u0644 \u0627\u0644\u0628\u0631\u0645\u062c\u0629 \u0628\u0644\u063a\u0629 R \u0648 Python');
    const all = t.join(' ');
    // "R and Python are" and "also" (a tanween mark drawn as its own object) in logical order
    assert.ok(all.includes('\u0628\u0644\u063a\u0629 R \u0648 Python \u0645\u0646 \u0627\u0644\u0623\u062f\u0648\u0627\u062a'), all.slice(0, 300));
    assert.ok(all.includes('\u0623\u064a\u0636\u064b\u0627'), 'أيضًا');
    assert.ok(t.length <= 6, `${t.length} elements`);
  });
});

describe('right-to-left text in a table\'s cells and at the head of a page', () => {
  // words as PDFium gives them: boxes left to right on the page, each word's letters in logical order
  const rtlLine = (y: number, ws: string[], right = 540) => {
    let x = right;
    return ws.map((t) => { const w = { t, x0: x - 6 * t.length, x1: x, y0: y, y1: y + 11, size: 11, bold: false, italic: false }; x = w.x0 - 3; return w; });
  };

  it('a ruled cell of two Hebrew words reads right to left', async () => {
    const { cellText } = await import('../../../../lambdas/engine/partition/pdf/tables/ruled');
    // "בריכת הטחנה": the first word read stands right of the second
    assert.equal(cellText(rtlLine(100, ['בריכת', 'הטחנה']).reverse()), 'בריכת הטחנה');
    assert.equal(cellText(rtlLine(100, ['בריכת', 'הטחנה', '4'])), 'בריכת הטחנה 4');
    const latin = [{ t: 'Mill', x0: 60, x1: 80, y0: 100, y1: 111, size: 11, bold: false, italic: false }, { t: 'Pond', x0: 83, x1: 103, y0: 100, y1: 111, size: 11, bold: false, italic: false }];
    assert.equal(cellText(latin), 'Mill Pond');
  });

  it('a Hebrew sentence at the head of a page printed with narrow margins is text, not a running head', async () => {
    const { layoutPage } = await import('../../../../lambdas/engine/partition/pdf/layout');
    const { wordsToLines } = await import('../../../../lambdas/engine/partition/pdf/lines');
    const words = [...rtlLine(30, 'טבלת הספירות בכל אתר בעונת האביב של השנה הזאת.'.split(' ')), ...rtlLine(60, 'הפעילות העיקרית הייתה סקר הציפורים באגמים הקטנים.'.split(' '))];
    const els = layoutPage({ page: 1, width: 612, height: 792, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0 }, { tables: true });
    assert.deepEqual(els.map((e) => e.type), ['NarrativeText', 'NarrativeText'], JSON.stringify(els.map((e) => [e.type, e.text])));
  });
});
