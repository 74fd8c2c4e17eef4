// Finding 9: under load `npm start` grew from 68 MB to GBs and never gave it back; the heap was
// full of the DynamoDB emulator's value streams and LevelDB iterators. dynalite 4 tears its
// streams down with iterator.return(), which abstract-level 3 iterators lack, so every query,
// list or scan left its iterator open (attached to the database for good). After a burst of API
// requests, every iterator the emulator opened must be closed again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestStack } from '../support/local-stack';
import { dynaliteLevelModule } from '../../local/emulators/dynamodb';

/** Counts the LevelDB iterators open on dynalite's databases (a probe on the real classes). */
function iteratorProbe() {
  const level = dynaliteLevelModule();
  const proto = level.AbstractLevel.prototype as { attachResource(r: object): void; detachResource(r: object): void };
  const isIterator = (r: object) => r instanceof level.AbstractIterator || r instanceof level.AbstractKeyIterator || r instanceof level.AbstractValueIterator;
  const open = new Set<object>();
  let opened = 0;
  const { attachResource, detachResource } = proto;
  proto.attachResource = function (r) {
    if (isIterator(r)) (open.add(r), opened++);
    return attachResource.call(this, r);
  };
  proto.detachResource = function (r) {
    open.delete(r);
    return detachResource.call(this, r);
  };
  return {
    get open() { return open.size; },
    get opened() { return opened; },
    restore() { Object.assign(proto, { attachResource, detachResource }); },
  };
}

test('every LevelDB iterator dynalite opens for a request is closed afterwards', { timeout: 120_000 }, async () => {
  const probe = iteratorProbe();
  const stack = await startTestStack();
  try {
    const rounds = 5;
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const created = await stack.call('POST', '/api/v1/sources/', { body: { name: `it-${round}-${i}`, type: 'local', config: { remote_url: '/tmp' } } });
          assert.equal(created.status, 200, created.text);
          await stack.call('GET', `/api/v1/sources/${created.body.id}`);
          for (const path of ['/api/v1/sources/', '/api/v1/jobs/', '/api/v1/notifications?limit=20', '/api/v1/notifications/unread-count', '/api/v1/workflows/']) {
            const r = await stack.call('GET', path);
            assert.equal(r.status, 200, `${path}: ${r.text}`);
          }
          assert.equal((await stack.call('DELETE', `/api/v1/sources/${created.body.id}`)).status, 200);
        }),
      );
    }
    assert.ok(probe.opened >= 100, `the requests opened only ${probe.opened} iterators: the probe sees nothing`);
    // Closing finishes just after the response; wait (bounded) for the count to drain.
    await eventually(async () => (probe.open === 0 ? true : undefined), 'open iterators to drain', 10_000).catch(() => undefined);
    assert.equal(probe.open, 0, `${probe.open} of the ${probe.opened} iterators opened by the requests are still open`);
  } finally {
    probe.restore();
    await stack.close();
  }
});
