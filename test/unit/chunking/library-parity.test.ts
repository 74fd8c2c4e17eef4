// Compares our chunker with the open-source library's own chunked outputs in the shared corpus.
// handbook-1p.docx (basic, max 150, overlap 20): its input elements are recovered from the library's
// orig_elements, so the comparison is exact: texts, ids, metadata and the orig_elements JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { chunkElements, decodeOrigElements } from '../../../lambdas/engine/chunking/index';
import type { Element } from '../../../lambdas/engine/elements';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const expected = path.resolve(repoRoot, '../shared/corpus/expected');
const load = (p: string): Element[] => JSON.parse(readFileSync(path.join(expected, p), 'utf8')) as Element[];

function inputsFromOrigElements(chunks: Element[]): Element[] {
  const seen = new Set<string>();
  const out: Element[] = [];
  for (const c of chunks) {
    for (const e of decodeOrigElements(c.metadata.orig_elements!)) {
      if (!seen.has(e.element_id)) {
        seen.add(e.element_id);
        out.push(e);
      }
    }
  }
  return out;
}

test('handbook-1p.docx basic chunking matches the library exactly', () => {
  assert.ok(existsSync(expected), `corpus missing: ${expected}`);
  const lib = load('head-chunked/handbook-1p.docx.basic-chunking.json');
  const ours = chunkElements(inputsFromOrigElements(lib), { strategy: 'basic', max_characters: 150, overlap: 20 });
  assert.equal(ours.length, lib.length);
  for (let i = 0; i < lib.length; i++) {
    const a = lib[i]!;
    const b = ours[i]!;
    assert.equal(b.type, a.type);
    assert.equal(b.text, a.text, `text of chunk ${i}`);
    assert.equal(b.element_id, a.element_id, `id of chunk ${i}`);
    const { orig_elements: oa, ...ma } = a.metadata;
    const { orig_elements: ob, ...mb } = b.metadata;
    assert.deepEqual(mb, ma, `metadata of chunk ${i}`);
    // -- the serialised JSON is byte-identical; only the deflate stream differs (Node's zlib build) --
    assert.equal(inflateSync(Buffer.from(ob!, 'base64')).toString(), inflateSync(Buffer.from(oa!, 'base64')).toString());
  }
});

test('multi-column-2p.pdf by_title (max 2000, no multipage sections) gives the same chunk count', () => {
  assert.ok(existsSync(expected), `corpus missing: ${expected}`);
  // -- input: the library's partition of the same PDF (an older version, so element texts differ slightly) --
  const lib = load('head-chunked/multi-column-2p.pdf.chunk-no-orig-elements.json');
  const input = load('oss-0.14.8-dev4/multi-column-2p.pdf.json');
  const ours = chunkElements(input, { strategy: 'by_title', max_characters: 2000, multipage_sections: false, include_orig_elements: false });
  assert.equal(ours.length, lib.length);
  assert.deepEqual(ours.map((c) => c.metadata.page_number), lib.map((c) => c.metadata.page_number));
  assert.ok(ours.every((c) => c.text.length <= 2000 && c.metadata.orig_elements === undefined));
});
