import assert from 'node:assert/strict';
import { test } from 'node:test';
import { castScalar, shownValue, ValueRefused } from '../../../lambdas/connectors/records/cast';

test('castScalar: numbers from numbers and numeric strings; 32-bit integers range-checked; 64-bit as bigint', () => {
  assert.equal(castScalar('int32', '42'), 42);
  assert.equal(castScalar('int64', 7), 7n);
  assert.equal(castScalar('int32', 2n), 2);
  assert.throws(() => castScalar('int32', 2 ** 31), ValueRefused);
  assert.throws(() => castScalar('int32', 2n ** 40n), ValueRefused);
  assert.throws(() => castScalar('int64', 1.5), ValueRefused);
  assert.throws(() => castScalar('int64', ' '), ValueRefused);
  assert.equal(castScalar('float', '0.25'), 0.25);
  assert.throws(() => castScalar('float', 'abc'), ValueRefused);
});

test('castScalar: strings take nested values as JSON, booleans only true/false; null stays null', () => {
  assert.equal(castScalar('string', { a: [1] }), '{"a":[1]}');
  assert.equal(castScalar('string', 3), '3');
  assert.equal(castScalar('boolean', 'false'), false);
  assert.throws(() => castScalar('boolean', 1), ValueRefused);
  assert.equal(castScalar('int64', null), null);
  assert.equal(shownValue({ n: 5n }), '{"n":"5"}');
  assert.equal(shownValue('x'.repeat(200)).length, 80);
});
