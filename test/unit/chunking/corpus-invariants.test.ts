// Invariants over every element file of the shared corpus's expected outputs, for each strategy:
// no chunk exceeds max_characters, no text is lost or reordered, tables stay apart from narrative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkElements, CHUNKING_STRATEGIES } from '../../../lambdas/engine/chunking/index';
import type { Element } from '../../../lambdas/engine/elements';

const expected = path.resolve(import.meta.dirname, '../../../../shared/corpus/expected');
const files = existsSync(expected)
  ? readdirSync(expected).flatMap((d) => readdirSync(path.join(expected, d)).filter((f) => f.endsWith('.json')).map((f) => path.join(d, f)))
  : [];

const words = (s: string) => s.split(/\s+/).filter(Boolean);

test('chunks respect max_characters and keep every word in order', () => {
  // The corpus is required: a missing one fails here rather than skipping silently.
  assert.ok(files.length > 0, `no expected-output files under ${expected}`);
  let checked = 0;
  for (const f of files) {
    const input = JSON.parse(readFileSync(path.join(expected, f), 'utf8')) as Element[];
    if (!Array.isArray(input) || input.some((e) => e.type === 'CompositeElement')) continue;
    for (const strategy of CHUNKING_STRATEGIES) {
      const max = 300;
      const chunks = chunkElements(input, { strategy, max_characters: max, new_after_n_chars: 250, include_orig_elements: false });
      for (const c of chunks) {
        assert.ok(c.text.length <= max, `${f} ${strategy}: a ${c.type} of ${c.text.length} characters`);
        assert.ok(['CompositeElement', 'Table', 'TableChunk'].includes(c.type), `${f}: unexpected ${c.type}`);
        if (c.type === 'TableChunk' && c.metadata.text_as_html) assert.match(c.metadata.text_as_html, /^<table>.*<\/table>$/);
      }
      // -- narrative text survives intact (tables are rebuilt from their HTML, so compare the rest) --
      const narrativeIn = input.filter((e) => e.type !== 'Table').flatMap((e) => words(e.text ?? ''));
      const narrativeOut = chunks.filter((c) => c.type === 'CompositeElement').flatMap((c) => words(c.text));
      assert.deepEqual(narrativeOut, narrativeIn, `${f} ${strategy}: narrative words differ`);
      checked += 1;
    }
  }
  assert.ok(checked > 20);
});
