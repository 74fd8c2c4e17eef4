// A mark-read of the largest request (100 ids, all in one read-mark window) is one UpdateItem: its
// expressions must stay within DynamoDB's limits (each expression string at most 4 KB), which dynalite
// does not enforce, so a request that works locally could fail on AWS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildUpdate } from '../../../lambdas/adapters/dynamo-store';
import { ENTITY } from '../../../lambdas/data/keys';

/** DynamoDB: "The maximum length of any expression string is 4 KB." */
const MAX_EXPRESSION_BYTES = 4096;

test('the read-mark update of 100 ids in one window stays within DynamoDB\'s 4 KB expression limit', () => {
  const token = 'a1b2c3d4e5f60718';
  const ids = Array.from({ length: 100 }, (_v, i) => `0194f3a2-7${(i % 16).toString(16)}aa-8bbb-${String(i).padStart(12, '0')}`);
  // the spec ReadMarks.claim builds (setIfAbsent r_<id> = token, the item's entity, upsert, UPDATED_NEW)
  const u = buildUpdate({ set: { entity: ENTITY.readMarks }, setIfAbsent: Object.fromEntries(ids.map((id) => [`r_${id}`, token])), upsert: true });
  const bytes = Buffer.byteLength(u.UpdateExpression);
  assert.ok(bytes <= MAX_EXPRESSION_BYTES, `UpdateExpression is ${bytes} bytes`);
  assert.ok(Buffer.byteLength(u.ConditionExpression ?? '') <= MAX_EXPRESSION_BYTES);
  // one value reference for the token, not one per id
  assert.equal(Object.values(u.ExpressionAttributeValues ?? {}).filter((v) => v === token).length, 1);
  assert.equal(Object.keys(u.ExpressionAttributeNames).length, 101);
});
