// Element ids are unique within a response, for every document of the corpus (../shared/corpus/docs,
// strategy fast). The library's hash joins filename, text, page and index without separators, so a
// running footer on page 12 (item 23) and on page 122 (item 3) of a 400-page PDF collided.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DomainError } from '../../../lambdas/errors';
import { partitionDocument as partition } from '../../../lambdas/engine/partition/pipeline';
import { shutdownPagePool } from '../../../lambdas/engine/partition/pdf/pool';
import { shutdownOcr } from '../../../lambdas/engine/partition/ocr/tesseract';

const corpus = resolve(import.meta.dirname, '../../../../shared/corpus/docs');

after(async () => { await shutdownPagePool(); await shutdownOcr(); });

describe('element ids over the whole corpus (fast)', () => {
  it('no response holds two elements with the same element_id', async () => {
    const refused: string[] = [];
    const dups: string[] = [];
    let documents = 0;
    for (const name of readdirSync(corpus).sort()) {
      let elements;
      try {
        elements = (await partition({ data: new Uint8Array(readFileSync(resolve(corpus, name))), filename: name }, { strategy: 'fast' })).elements;
      } catch (err) {
        // Client errors (an image with strategy fast, an encrypted PDF, .ppt without LibreOffice) are
        // answers too; anything else fails the test.
        assert.ok(err instanceof DomainError && err.status < 500, `${name}: ${(err as Error).message}`);
        refused.push(name);
        continue;
      }
      documents++;
      const seen = new Map<string, number>();
      elements.forEach((e, i) => {
        const first = seen.get(e.element_id);
        if (first !== undefined) dups.push(`${name}: #${first} and #${i} (${e.type}, page ${e.metadata.page_number}, ${JSON.stringify(e.text.slice(0, 40))})`);
        else seen.set(e.element_id, i);
      });
    }
    assert.ok(documents >= 50, `${documents} documents partitioned (refused: ${refused.join(', ')})`);
    assert.deepEqual(dups, []);
  });
});
