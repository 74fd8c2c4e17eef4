// Each format partitioner against the open-source library's expected output for the corpus documents
// (text accuracy and element-type agreement, the scorer's metrics).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FileType, PartitionOptions } from '../../../../lambdas/engine/partition/types';
import { cleanText, corpusDoc, expected, partition, textAccuracy, typeAgreement } from './helpers';

const CASES: { doc: string; set: string; type: FileType; minTypes: number; options?: Partial<PartitionOptions> }[] = [
  { doc: 'fake-text.txt', set: 'head-ingest', type: 'txt', minTypes: 1 },
  { doc: 'book-war-and-peace-1p.txt', set: 'oss-0.14.8-dev4', type: 'txt', minTypes: 1 },
  { doc: 'README.md', set: 'oss-0.14.8-dev4', type: 'md', minTypes: 0.85 },
  { doc: 'README.org', set: 'oss-0.14.8-dev4', type: 'org', minTypes: 0.8 },
  { doc: 'fake-html-cp1252.html', set: 'head-ingest', type: 'html', minTypes: 0.9, options: { encoding: 'cp1252' } },
  { doc: 'ideas-page.html', set: 'head-ingest', type: 'html', minTypes: 1 },
  { doc: 'example-10k-1p.html', set: 'oss-0.14.8-dev4', type: 'html', minTypes: 0.75 },
  { doc: 'factbook.xml', set: 'oss-0.14.8-dev4', type: 'xml', minTypes: 1 },
  { doc: 'spring-weather.html.json', set: 'oss-0.14.8-dev4', type: 'json', minTypes: 0.85 },
  { doc: 'stanley-cups.csv', set: 'oss-0.14.8-dev4', type: 'csv', minTypes: 1 },
  { doc: 'stanley-cups.tsv', set: 'oss-0.14.8-dev4', type: 'tsv', minTypes: 1 },
  { doc: 'stanley-cups.xlsx', set: 'head-ingest', type: 'xlsx', minTypes: 1 },
  { doc: 'tests-example.xls', set: 'head-ingest', type: 'xls', minTypes: 1 },
  { doc: 'handbook-1p.docx', set: 'head-ingest', type: 'docx', minTypes: 0.95 },
  { doc: 'docx-tables.docx', set: 'oss-0.14.8-dev4', type: 'docx', minTypes: 0.5 },
  { doc: 'duplicate-paragraphs.doc', set: 'oss-0.14.8-dev4', type: 'doc', minTypes: 0.8 },
  { doc: 'fake-power-point.pptx', set: 'oss-0.14.8-dev4', type: 'pptx', minTypes: 1 },
  { doc: 'science-exploration-1p.pptx', set: 'head-ingest', type: 'pptx', minTypes: 1 },
  { doc: 'simple.odt', set: 'oss-0.14.8-dev4', type: 'odt', minTypes: 0.9 },
  { doc: 'fake-doc.rtf', set: 'oss-0.14.8-dev4', type: 'rtf', minTypes: 0.9 },
  { doc: 'fake-email.msg', set: 'oss-0.14.8-dev4', type: 'msg', minTypes: 1 },
];

for (const c of CASES) {
  test(`${c.doc} matches the library's output (${c.set})`, async () => {
    const exp = expected(c.set, c.doc);
    assert.ok(exp, 'expected output present in the corpus');
    const out = await partition(c.type, corpusDoc(c.doc), c.options);
    const acc = textAccuracy(cleanText(out), cleanText(exp));
    assert.ok(acc >= 0.98, `text accuracy ${acc.toFixed(3)}`);
    const agreement = typeAgreement(out, exp);
    assert.ok(agreement >= c.minTypes, `type agreement ${agreement.toFixed(3)} < ${c.minTypes}`);
    for (const el of out) {
      assert.equal(typeof el.text, 'string');
      assert.match(el.element_id, /^tmp-/);
      if (el.metadata.page_number !== undefined) assert.ok(Number.isInteger(el.metadata.page_number) && el.metadata.page_number >= 1);
    }
  });
}

test('winter-sports.epub: chapters in spine order, close to the library output', async () => {
  const exp = expected('oss-0.14.8-dev4', 'winter-sports.epub')!;
  const out = await partition('epub', corpusDoc('winter-sports.epub'));
  const a = cleanText(out);
  const b = cleanText(exp);
  // texts are long: compare the first and last 2,000 characters
  assert.ok(textAccuracy(a.slice(0, 2000), b.slice(0, 2000)) > 0.97);
  assert.ok(textAccuracy(a.slice(-2000), b.slice(-2000)) > 0.97);
  assert.ok(typeAgreement(out, exp) > 0.9);
  assert.equal(out.filter((e) => e.type === 'Table').length, exp.filter((e) => e.type === 'Table').length);
});
