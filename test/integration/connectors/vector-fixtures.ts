// Elements as a workflow hands them to a vector destination (chunks with 384-dim embeddings and the
// metadata the partitioner and chunker set), shared by the vector-store connector tests.
import assert from 'node:assert/strict';
import type { ElementRecord } from '../../../lambdas/connectors/records/types';
import { deliverToDestination } from '../../../lambdas/connectors/registry';

export const DIMS = 384;

export const vec = (seed: number, dims = DIMS) => Array.from({ length: dims }, (_, i) => Math.round(Math.sin(seed * 7 + i) * 1e6) / 1e6);

export function element(i: number, text: string, extra: Record<string, unknown> = {}, dims = DIMS): ElementRecord {
  return {
    type: i === 0 ? 'Title' : 'CompositeElement',
    element_id: `el-${i}-${text.length}`,
    text,
    metadata: {
      filename: 'a.txt',
      filetype: 'text/plain',
      languages: ['eng'],
      page_number: 1,
      data_source: { url: 's3://b/a.txt', date_modified: '2026-01-02T03:04:05Z', record_locator: { path: 'a.txt' } },
      ...extra,
    },
    embeddings: vec(i, dims),
  };
}

export const elements = (n: number, prefix = 'text') => Array.from({ length: n }, (_, i) => element(i, `${prefix} ${i}`));

/** Collects ctx.log lines of a delivery (retries are logged with their delay). */
export function logSink() {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  return { lines, log: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields }) };
}

/**
 * Delivers a.txt (3 elements), b.txt (1), then a.txt again (2, its body edited) from source 'src' to
 * destination `type` (`config()` each time): the first delivery writes 3, the rewrite writes 2 and
 * deletes a.txt's 3.
 */
export async function writeThenRewrite(type: string, config: () => Record<string, unknown>): Promise<void> {
  const doc = (sourceKey: string, els: ElementRecord[]) => ({ sourceId: 'src', sourceKey, elements: els });
  const first = await deliverToDestination(type, config(), doc('a.txt', [element(0, 'Title one'), element(1, 'Body one'), element(2, 'Body two')]));
  assert.deepEqual(first, { written: 3, deleted: 0 });
  await deliverToDestination(type, config(), doc('b.txt', [element(0, 'Other doc')]));
  const second = await deliverToDestination(type, config(), doc('a.txt', [element(0, 'Title one'), element(1, 'Body one, edited')]));
  assert.deepEqual(second, { written: 2, deleted: 3 });
}
