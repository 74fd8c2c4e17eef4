// Page fan-out (issue 12): a job splits a long PDF into page ranges partitioned apart (each in its own
// sandbox process, raw) and merges them (domain/job-pages.ts, node-runner.ts pageEngine). The merged
// elements must be exactly those of one pass: same ids (per-page indexes, and the re-hash of ids that
// collide across the whole document: the 400-page PDF's running footer on page 12 and page 122, which
// fall in different ranges here), same order, page numbers, languages, page breaks. A multi-page TIFF
// and a gzipped PDF are split the same way.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { partition, shutdownPartitionSandbox } from '../../../lambdas/engine/partition/index';
import { parsePartitionForm } from '../../../lambdas/engine/partition/params';
import { pageEngine } from '../../../lambdas/domain/node-runner';
import { partitionFields, type JobNode } from '../../../lambdas/domain/job-nodes';
import { pageRanges } from '../../../lambdas/domain/job-pages';
import type { Element } from '../../../lambdas/engine/elements';
import { corpusPage, multiPageTiff } from '../../support/tiff';

const corpus = resolve(import.meta.dirname, '../../../../shared/corpus/docs');
after(() => shutdownPartitionSandbox());

const node = (settings: Record<string, unknown>): JobNode => ({ id: 'n0', name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings }) as JobNode;

async function onePassAndFanOut(
  name: string,
  settings: Record<string, unknown>,
  rangeSize: number,
  data: Uint8Array = new Uint8Array(readFileSync(resolve(corpus, name))),
): Promise<{ one: Element[]; merged: Element[]; ranges: number }> {
  const document = { data, filename: name };
  const n = node(settings);
  const one = await partition(document, parsePartitionForm(partitionFields(n)).options);
  // what ProcessFile does first: the sandbox reports the page count without partitioning
  const probe = await partition(document, parsePartitionForm(partitionFields(n)).options, { splitAbove: rangeSize });
  assert.equal(probe.elements.length, 0, 'a document above the threshold is left to the ranges');
  assert.ok(probe.pageCount! > rangeSize, `${name} has ${probe.pageCount} pages`);
  const ranges = pageRanges(probe.pageCount!, rangeSize);
  const parts = (await Promise.all(ranges.map((r) => pageEngine.partitionRange(n, document, r)))).map((r) => r.part);
  // the parts travel through S3 as JSON
  const merged = pageEngine.merge(n, JSON.parse(JSON.stringify(parts)), name);
  return { one: one.elements, merged, ranges: ranges.length };
}

function assertSameElements(merged: Element[], one: Element[]): void {
  assert.ok(one.length > 0);
  assert.equal(merged.length, one.length, 'element count');
  for (let i = 0; i < one.length; i++) assert.deepEqual(merged[i], one[i], `element #${i} (page ${one[i]!.metadata.page_number})`);
}

describe('page fan-out merges into the elements of one pass', () => {
  it('400-page PDF, fast, ranges of 100: same elements, ids re-hashed across ranges as in one pass', async () => {
    const { one, merged, ranges } = await onePassAndFanOut('pdf2image-memory-error-test-400p.pdf', { strategy: 'fast' }, 100);
    assert.equal(ranges, 4);
    assertSameElements(merged, one);
    const pages = merged.map((e) => e.metadata.page_number!);
    assert.deepEqual(pages, [...pages].sort((a, b) => a - b), 'page numbers ascend');
    for (const first of [1, 101, 201, 301]) assert.ok(pages.some((p) => p >= first && p < first + 100), `elements of the range from page ${first}`);
  });

  it('13-page PDF with page breaks, a starting page number and unique ids off: ranges of 5', async () => {
    const { one, merged, ranges } = await onePassAndFanOut('multi-column.pdf', { strategy: 'fast', include_page_breaks: true, starting_page_number: 7 }, 5);
    assert.equal(ranges, 3);
    assert.ok(one.some((e) => e.type === 'PageBreak'));
    assertSameElements(merged, one);
  });

  it('5-page TIFF, ocr_only with page breaks, ranges of 2: each range reads its own pages; same elements', async () => {
    // pages 1 and 4 alike: the same text on two pages of different ranges
    const pages = ['table-multi-row-column-cells.png', 'example.jpg', 'layout-parser-paper-fast.jpg', 'table-multi-row-column-cells.png', 'example.jpg'];
    const tiff = multiPageTiff(pages.map((p) => corpusPage(corpus, p)));
    const { one, merged, ranges } = await onePassAndFanOut('scan.tiff', { strategy: 'ocr_only', include_page_breaks: true }, 2, tiff);
    assert.equal(ranges, 3);
    assertSameElements(merged, one);
    const textPages = new Set(merged.filter((e) => e.type !== 'PageBreak').map((e) => e.metadata.page_number));
    assert.deepEqual([...textPages], [1, 2, 3, 4, 5], 'every page read once, in order');
  });

  it('gzipped 13-page PDF, fast, ranges of 5: same elements, named as the PDF inside', async () => {
    const gz = new Uint8Array(gzipSync(readFileSync(resolve(corpus, 'multi-column.pdf'))));
    const { one, merged, ranges } = await onePassAndFanOut('multi-column.pdf.gz', { strategy: 'fast' }, 5, gz);
    assert.equal(ranges, 3);
    assertSameElements(merged, one);
    assert.equal(merged[0]!.metadata.filename, 'multi-column.pdf');
  });
});
