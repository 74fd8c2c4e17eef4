// Finding 9: under load `npm start` grew from 68 MB to GBs and never gave it back; the heap was
// full of the DynamoDB emulator's value streams and LevelDB iterators. dynalite 4 tears its
// streams down with iterator.return(), which abstract-level 3 iterators lack, so every query,
// list or scan left its iterator open (attached to the database for good). After a burst of API
// requests, every iterator the emulator opened must be closed again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestStack } from '../support/local-stack';
import { openDynaliteIterators } from '../../local/emulators/dynamodb';

test('every LevelDB iterator dynalite opens for a request is closed afterwards', { timeout: 120_000 }, async () => {
  const stack = await startTestStack();
  try {
    // dynalite runs on its own thread: the count comes from there (the stack's thread is the only one)
    const before = await openDynaliteIterators();
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
    const opened = (await openDynaliteIterators()).opened - before.opened;
    assert.ok(opened >= 100, `the requests opened only ${opened} iterators: the probe sees nothing`);
    // Closing finishes just after the response; wait (bounded) for the count to drain.
    await eventually(async () => ((await openDynaliteIterators()).open === 0 ? true : undefined), 'open iterators to drain', 10_000).catch(() => undefined);
    const { open } = await openDynaliteIterators();
    assert.equal(open, 0, `${open} of the ${opened} iterators opened by the requests are still open`);
  } finally {
    await stack.close();
  }
});
