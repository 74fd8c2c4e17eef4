// The decision of an incremental workflow run (lambdas/domain/source-state.ts planRun): which listed
// documents are processed, which are skipped as unchanged, which left the source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRun, type SourceDocState } from '../../lambdas/domain/source-state';

const state = (docKey: string, version: string | undefined, extra: Partial<SourceDocState> = {}): SourceDocState => ({
  docKey,
  ...(version !== undefined ? { version } : {}),
  sourceId: 'src',
  destinationId: 'dst',
  lastJobId: 'job-1',
  ...extra,
});
const opts = { reprocessAll: false, sourceId: 'src', destinationId: 'dst', listingComplete: true };
const keysOf = (docs: { key: string }[]) => docs.map((d) => d.key).sort();

test('first run: every listed document is processed, nothing skipped or removed', () => {
  const plan = planRun([{ key: 'a', size: 1, version: 'v1' }, { key: 'b', size: 1, version: 'v1' }], [], opts);
  assert.deepEqual(keysOf(plan.process), ['a', 'b']);
  assert.equal(plan.unchanged, 0);
  assert.deepEqual(plan.removed, []);
});

test('second run: new and changed documents are processed, unchanged skipped, gone ones removed', () => {
  const listed = [
    { key: 'same', size: 3, version: 'v1' },
    { key: 'changed', size: 3, version: 'v2' },
    { key: 'new', size: 3, version: 'v1' },
  ];
  const known = [state('same', 'v1'), state('changed', 'v1'), state('gone', 'v1')];
  const plan = planRun(listed, known, opts);
  assert.deepEqual(keysOf(plan.process), ['changed', 'new']);
  assert.equal(plan.unchanged, 1);
  assert.deepEqual(plan.removed.map((s) => s.docKey), ['gone']);
});

test('reprocess_all processes every listed document and still removes the gone ones', () => {
  const plan = planRun([{ key: 'same', size: 3, version: 'v1' }], [state('same', 'v1'), state('gone', 'v1')], { ...opts, reprocessAll: true });
  assert.deepEqual(keysOf(plan.process), ['same']);
  assert.equal(plan.unchanged, 0);
  assert.deepEqual(plan.removed.map((s) => s.docKey), ['gone']);
});

test('a document without a version (the source gives none) is processed every run', () => {
  const plan = planRun([{ key: 'a', size: 3 }], [state('a', undefined)], opts);
  assert.deepEqual(keysOf(plan.process), ['a']);
  assert.equal(plan.unchanged, 0);
});

test('same version but another source or destination since the last delivery: processed again', () => {
  const listed = [{ key: 'a', size: 3, version: 'v1' }];
  assert.equal(planRun(listed, [state('a', 'v1', { sourceId: 'old-src' })], opts).process.length, 1);
  assert.equal(planRun(listed, [state('a', 'v1', { destinationId: 'old-dst' })], opts).process.length, 1);
  assert.equal(planRun(listed, [state('a', 'v1', { destinationId: undefined })], opts).process.length, 1);
  assert.equal(planRun(listed, [state('a', 'v1', { destinationId: undefined })], { ...opts, destinationId: undefined }).process.length, 0);
});

test('a listing cut at the per-job cap removes nothing: the documents after the cut are not gone', () => {
  const plan = planRun([{ key: 'a', size: 3, version: 'v1' }], [state('a', 'v1'), state('z', 'v1')], { ...opts, listingComplete: false });
  assert.deepEqual(plan.removed, []);
  assert.equal(plan.unchanged, 1);
});
