// npm run bench:adversarial — partition cost on inputs made to be slow, beside ordinary documents
// (issue 28: partition cost linear in input). Each input runs through the engine in this process
// (partitionDocument, fast strategy: the sandbox's fork and IPC are not counted), best of --rounds,
// and prints bytes per second. An input refused by a cap prints the time to its 413/422: a cap is
// doing its job when that is short. A super-linear path shows as an adversarial row far below the
// ordinary ones; the sizes double with --scale 2, so a linear path keeps its bytes/s.
// Usage: node --import tsx test/bench/adversarial.ts [--rounds N] [--scale K]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { partitionDocument } from '../../lambdas/engine/partition/pipeline';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const docsDir = path.resolve(repoRoot, '../shared/corpus/docs');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('--rounds', 3);
const SCALE = arg('--scale', 1);

const text = (s: string) => new TextEncoder().encode(s);
const lines = (line: string, bytes: number) => text(Array.from({ length: Math.ceil(bytes / (line.length + 1)) }, () => line).join('\n'));

function sharedStringXlsx(str: string, cells: number): Uint8Array {
  const rows = Array.from({ length: Math.ceil(cells / 10) }, (_, r) => `<row r="${r + 1}">${Array.from({ length: 10 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="s"><v>0</v></c>`).join('')}</row>`).join('');
  return zipSync({
    'xl/workbook.xml': strToU8('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/sharedStrings.xml': strToU8(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${str}</t></si></sst>`),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`),
  }, { level: 9 });
}

const MB = 1024 * 1024 * SCALE;
const ADVERSARIAL: [string, string, () => Uint8Array][] = [
  ['1,000-letter lines without spaces', 'x.txt', () => lines('abcdefghij'.repeat(100), MB)],
  ['lines of 10,000 dots', 'x.txt', () => lines('.'.repeat(10_000), MB)],
  ['lines of 10,000 spaces between letters', 'x.txt', () => lines(`a${' '.repeat(10_000)}a`, MB)],
  ['"Mr. " repeated in one paragraph', 'x.txt', () => text('Mr. '.repeat(MB / 4))],
  ['one 1 MB line of words', 'x.txt', () => text('the cat sat on the mat '.repeat(MB / 23))],
  ['ALL CAPS lines', 'x.txt', () => lines('ABC DEF GHI JKL MNO PQR STU', MB)],
  ['bullets', 'x.txt', () => lines('• '.repeat(500), MB)],
  ['html: 50,000 tiny paragraphs', 'x.html', () => text(`<html><body>${'<p>a</p>'.repeat(50_000 * SCALE)}</body></html>`)],
  ['markdown: list nested 150 deep', 'x.md', () => text(Array.from({ length: 150 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n'))],
  ['xlsx: one 1 MB shared string in 200 cells (cap)', 'x.xlsx', () => sharedStringXlsx('word '.repeat(200_000), 200)],
];
const ORDINARY = ['book-war-and-peace-1p.txt', 'fake-text.txt', 'example-10k.html', 'handbook-1p.docx', 'stanley-cups.xlsx', 'semicolon-delimited.csv'];

async function measure(name: string, filename: string, data: Uint8Array): Promise<void> {
  let best = Infinity;
  let outcome = '';
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    try {
      const res = await partitionDocument({ data, filename }, { strategy: 'fast' }, {});
      outcome = `${res.elements.length} elements`;
    } catch (err) {
      outcome = `refused: ${(err as Error).message.slice(0, 70)}`;
    }
    best = Math.min(best, performance.now() - t);
  }
  const rate = data.length / (best / 1000) / 1024 / 1024;
  console.log(`  ${name.padEnd(52)} ${String(data.length).padStart(9)} B ${best.toFixed(0).padStart(7)} ms ${rate.toFixed(2).padStart(8)} MB/s  ${outcome}`);
}

console.log(`bench:adversarial — engine in-process, fast strategy, best of ${ROUNDS}, scale ${SCALE}`);
console.log('ordinary documents (../shared/corpus/docs):');
for (const f of ORDINARY) {
  const p = path.join(docsDir, f);
  if (!existsSync(p)) {
    console.log(`  ${f}: not in corpus, skipped`);
    continue;
  }
  await measure(f, f, readFileSync(p));
}
console.log('adversarial inputs (made here):');
for (const [name, filename, make] of ADVERSARIAL) await measure(name, filename, make());
process.exit(0);
