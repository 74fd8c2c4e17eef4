// A paper in two columns with a results table set across both (LaTeX's table*, a browser's
// column-span: all) and a small table inside the right column beside the left column's prose. The
// wide table's rows have short cells on both sides of the gutter, which made the whole page one
// column: each line of the two columns' prose was then two short segments (one per column) that read
// as rows, and the small table took in the prose lines above and below it in its column. The wide
// table's band is read whole; the columns above and below it are still read apart.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { layoutPage } from '../../../../lambdas/engine/partition/pdf/layout';
import { wordsToLines } from '../../../../lambdas/engine/partition/pdf/lines';
import type { HRule, RawPage, Word } from '../../../../lambdas/engine/partition/pdf/page-text';
import { typeset } from '../../../support/page-words';

const L = 57, LR = 287, R = 309, RR = 539;

// The page's segments as a browser printed it (A4, 10 pt text, 9 pt tables): [top, x0, x1, text].
const SEGS: [number, number, number, string][] = [
  [65.2, 94, 502, 'Sparse Attention Routing for Long Document'],
  [85.5, 237, 358, 'Classification'],
  [109.8, 183, 413, 'Maria Okonkwo, Lars Pettersen, Hiro Tanaka'],
  [122.5, 197, 398, 'Institute for Applied Language Systems'],
  [147.3, 309, 539, 'of five long document datasets with'],
  [157.7, 57, 109, 'Abstract'],
  [157.7, 309, 408, 'standardised splits.'],
  [175.0, 57, 286, 'We study how sparse attention patterns'],
  [182.5, 57, 286, 'affect the accuracy of document classifiers'],
  [182.5, 309, 374, '2 Datasets'],
  [199.8, 57, 286, 'on inputs longer than eight thousand tokens.'],
  [199.8, 309, 538, 'Table 1 lists the datasets used in our'],
  [212.5, 57, 287, 'Our routing method selects a small subset of'],
  [212.5, 309, 538, 'experiments together with their average'],
  [224.5, 57, 286, 'key blocks for each query block and reaches'],
  [224.5, 309, 461, 'length and number of classes.'],
  [237.3, 57, 286, 'the accuracy of dense attention at a fraction'],
  [243.3, 309, 514, 'Table 1: Statistics of the evaluation datasets.'],
  [250.0, 57, 154, 'of its memory cost.'],
  [261.3, 317, 355, 'Dataset'],
  [261.3, 395, 419, 'Docs'],
  [261.3, 438, 481, 'Avg. len.'],
  [261.3, 494, 531, 'Classes'],
  [273.2, 57, 147, '1 Introduction'],
  [273.2, 317, 383, 'Hyperpartisan'],
  [273.2, 409, 426, '645'],
  [273.2, 464, 481, '741'],
  [273.2, 525, 531, '2'],
  [288.3, 57, 286, 'Transformer encoders scale quadratically'],
  [288.3, 317, 349, 'ECtHR'],
  [288.3, 395, 426, '11,000'],
  [288.3, 456, 481, '2,140'],
  [288.3, 519, 531, '10'],
  [301.8, 57, 286, 'with the length of their input, which limits'],
  [301.8, 317, 363, 'MIMIC-III'],
  [301.8, 395, 426, '52,724'],
  [301.8, 456, 481, '1,518'],
  [301.8, 519, 531, '50'],
  [314.6, 57, 286, 'their use on legal contracts, patents and'],
  [314.6, 317, 341, 'arXiv'],
  [314.6, 395, 426, '33,388'],
  [314.6, 456, 481, '6,300'],
  [314.6, 519, 531, '11'],
  [327.3, 57, 286, 'scientific articles. Several approximations'],
  [327.3, 317, 360, 'BookSum'],
  [327.3, 409, 426, '405'],
  [327.3, 444, 481, '112,885'],
  [327.3, 525, 531, '6'],
  [340.0, 57, 286, 'have been proposed, among them fixed'],
  [340.0, 309, 538, 'Lengths are counted in word pieces of the base'],
  [352.0, 57, 286, 'windows, random blocks and learned'],
  [352.0, 309, 355, 'vocabulary.'],
  [364.8, 57, 286, 'clustering of keys. We compare these'],
  [373.8, 57, 271, 'families under a common training budget.'],
  [373.8, 309, 538, 'All datasets are split into training, validation'],
  [385.8, 309, 538, 'and test sets of ratio 80/10/10 unless an'],
  [395.5, 57, 286, 'Our contributions are threefold: a routing'],
  [395.5, 309, 538, 'official split exists. Documents are truncated'],
  [408.3, 57, 286, 'layer that is trained end to end, an analysis'],
  [408.3, 309, 470, 'at 16,384 tokens for all models.'],
  [421.0, 57, 286, 'of the tokens it attends to, and a benchmark'],
  [445.1, 57, 520, 'Table 2: Test accuracy (%) and peak memory (GB). Best results in bold. Mean ± std over three seeds.'],
  [463.1, 147, 220, 'Hyperpartisan'],
  [463.1, 280, 314, 'ECtHR'],
  [463.1, 412, 439, 'arXiv'],
  [470.6, 63, 94, 'Model'],
  [477.3, 147, 168, 'Acc.'],
  [477.3, 228, 257, 'Mem.'],
  [477.3, 280, 301, 'Acc.'],
  [477.3, 361, 389, 'Mem.'],
  [477.3, 412, 433, 'Acc.'],
  [477.3, 493, 521, 'Mem.'],
  [490.8, 63, 91, 'Dense'],
  [490.8, 169, 216, '94.1 ± 0.4'],
  [490.8, 248, 268, '31.2'],
  [490.8, 301, 349, '79.8 ± 0.6'],
  [490.8, 380, 400, '38.5'],
  [490.8, 433, 481, '85.2 ± 0.3'],
  [490.8, 512, 532, '40.1'],
  [504.3, 63, 117, 'Longformer'],
  [504.3, 169, 216, '93.6 ± 0.5'],
  [504.3, 248, 268, '12.4'],
  [504.3, 301, 349, '79.1 ± 0.7'],
  [504.3, 380, 400, '14.0'],
  [504.3, 433, 481, '84.7 ± 0.2'],
  [504.3, 512, 532, '15.3'],
  [517.8, 63, 98, 'BigBird'],
  [517.8, 169, 216, '93.9 ± 0.3'],
  [517.8, 248, 268, '13.1'],
  [517.8, 301, 349, '78.6 ± 0.9'],
  [517.8, 380, 400, '14.8'],
  [517.8, 433, 481, '84.9 ± 0.4'],
  [517.8, 512, 532, '16.0'],
  [530.5, 63, 85, 'Ours'],
  [530.5, 165, 216, '95.0 ± 0.2'],
  [530.5, 252, 268, '9.8'],
  [530.5, 297, 349, '81.3 ± 0.5'],
  [530.5, 378, 400, '10.6'],
  [530.5, 430, 481, '86.4 ± 0.3'],
  [530.5, 511, 532, '11.2'],
  [548.6, 57, 330, 'Memory measured on a single 80 GB accelerator with batch size 8.'],
  [574.8, 309, 538, 'We also observe that the learned routes'],
  [585.2, 57, 114, '3 Results'],
  [585.2, 309, 538, 'concentrate on section boundaries, which'],
  [599.5, 57, 286, 'Our routing layer improves accuracy over'],
  [599.5, 309, 538, 'suggests that the model discovers document'],
  [612.3, 57, 286, 'dense attention on all three datasets while'],
  [612.3, 309, 463, 'structure without supervision.'],
  [627.3, 57, 286, 'using about a third of its memory. The gain'],
  [635.5, 57, 286, 'is largest on ECtHR, whose documents'],
  [635.5, 309, 389, '4 Conclusion'],
  [652.0, 57, 286, 'contain long passages of facts followed by'],
  [652.0, 309, 538, 'Sparse routing is a practical alternative to'],
  [664.8, 57, 172, 'short legal arguments.'],
  [664.8, 309, 538, 'dense attention for long documents. Future'],
  [677.5, 309, 538, 'work will study its behaviour under domain'],
  [689.5, 309, 470, 'shift and in generative settings.'],
];
// booktabs rules: the small table's top, header and bottom rules; the wide one's, with a rule under
// its group labels that leaves out the first column
const RULES: HRule[] = [[258, 311, 537], [272.6, 311, 537], [339.8, 311, 537], [460.5, 57, 539], [474.4, 142, 539], [488.6, 142, 539], [543, 57, 539]].map(([y, x0, x1]) => ({ y: y!, x0: x0!, x1: x1! }));

/** A segment's words spread over its extent (word widths by their letters, spaces alike). */
function segment(top: number, x0: number, x1: number, t: string): Word[] {
  const parts = t.split(' ');
  const size = top > 240 && top < 560 && !t.startsWith('Table') && parts.length < 8 ? 9 : 10;
  const space = 2.5, letters = parts.reduce((n, p) => n + p.length, 0);
  const char = (x1 - x0 - space * (parts.length - 1)) / letters;
  let x = x0;
  return parts.map((p) => { const w: Word = { t: p, x0: x, x1: x + char * p.length, y0: top, y1: top + size, size, bold: false, italic: false }; x = w.x1 + space; return w; });
}
const page = (): RawPage => ({ page: 1, width: 595, height: 842, lines: wordsToLines(SEGS.flatMap((s) => segment(...s))), links: [], images: [], chars: 0, unmapped: 0, rules: { h: RULES, v: [], tol: 1 } } as RawPage);

const SMALL = 'Dataset Docs Avg. len. Classes Hyperpartisan 645 741 2 ECtHR 11,000 2,140 10 MIMIC-III 52,724 1,518 50 arXiv 33,388 6,300 11 BookSum 405 112,885 6';

it('a table across both columns of a paper leaves the columns above and below it apart: the small table in a column holds its own rows only', () => {
  const els = layoutPage(page(), { tables: true });
  const dump = JSON.stringify(els.map((e) => [e.type, e.text]), null, 1);
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 2, dump);
  assert.equal(tables[0]!.text, SMALL, dump);
  assert.match(tables[1]!.text, /^(Model )?Hyperpartisan ECtHR arXiv (Model )?Acc\. Mem\. .* Ours 95\.0 ± 0\.2 9\.8 81\.3 ± 0\.5 10\.6 86\.4 ± 0\.3 11\.2$/, dump);
  const rest = els.filter((e) => e.type !== 'Table').map((e) => e.text);
  for (const t of ['of five long document datasets with standardised splits.', '2 Datasets', 'Table 1 lists the datasets used in our experiments together with their average length and number of classes.',
    'Table 1: Statistics of the evaluation datasets.', 'Lengths are counted in word pieces of the base vocabulary.',
    'All datasets are split into training, validation and test sets of ratio 80/10/10 unless an official split exists. Documents are truncated at 16,384 tokens for all models.']) assert.ok(rest.includes(t), `${t}: ${dump}`);
});

it('a table of words across both columns at the top of the page (a paper\'s table* at [t]) is a table, though it stands above the columns as a title would', () => {
  // the page's head (lines above the columns' running text, set across them) holds only tables of
  // figures, as authors and affiliations side by side line up too; this one is ruled: top, header and bottom rules
  const text = typeset({ size: 10, char: 4.6, space: 2.5 });
  const cell = typeset({ size: 9, char: 4.2, space: 2.2 });
  const rows = [['Dataset', 'Domain', 'Licence', 'Task'], ['Hyperpartisan', 'News articles', 'CC BY 4.0', 'Bias detection'],
    ['ECtHR', 'Court judgments', 'CC BY-NC', 'Violated articles'], ['MIMIC-III', 'Clinical notes', 'PhysioNet', 'Code assignment'], ['arXiv', 'Scientific papers', 'Various', 'Subject area']];
  const xs = [63, 190, 330, 440];
  const left = ['We study how sparse attention patterns affect the', 'accuracy of document classifiers on inputs longer', 'than eight thousand tokens, and we find that a few', 'routed blocks reach the accuracy of dense attention.'];
  const right = ['Table 2 lists the datasets used in this study with', 'their domain, their licence and the task they are', 'labelled for; all of them are in English and their', 'documents are longer than the models can read.'];
  const words = [
    ...text('Table 2: Datasets used in this study, their domain, licence and the task they are labelled for.', 57, 60),
    ...rows.flatMap((r, i) => r.flatMap((t, k) => cell(t, xs[k]!, 80 + (i ? 4 : 0) + 12.5 * i))),
    ...left.flatMap((t, i) => text(t, L, 170 + 13 * i, LR)), ...right.flatMap((t, i) => text(t, R, 170 + 13 * i, RR)),
  ];
  const h = [[77, 57, 539], [92, 57, 539], [143, 57, 539]].map(([y, x0, x1]) => ({ y: y!, x0: x0!, x1: x1! }));
  const els = layoutPage({ page: 1, width: 595, height: 842, lines: wordsToLines(words), links: [], images: [], chars: 0, unmapped: 0, rules: { h, v: [], tol: 1 } } as RawPage, { tables: true });
  const dump = JSON.stringify(els.map((e) => [e.type, e.text]));
  const tables = els.filter((e) => e.type === 'Table');
  assert.equal(tables.length, 1, dump);
  assert.equal(tables[0]!.text, rows.flat().join(' '), dump);
  assert.ok(els.some((e) => e.text === left.join(' ')) && els.some((e) => e.text === right.join(' ')), dump);
});
