// isUsCityStateZip decides the library's pattern in linear time: the same answers as the regex on
// generated addresses and near-misses (its speed on long runs of letters: npm run bench:adversarial).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUsCityStateZip, US_CITY_STATE_ZIP_SOURCE } from '../../../lambdas/engine/partition/classify';

const reference = new RegExp(US_CITY_STATE_ZIP_SOURCE, 'i');

/** Deterministic generator (mulberry32). */
function rng(seed: number) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('the same answers as the reference regex on 20,000 generated lines', () => {
  const r = rng(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const word = () => {
    const n = 1 + Math.floor(r() * 22);
    let w = pick(['A', 'b', 'Z', '.', '-', '1', 'é']);
    for (let i = 1; i < n; i++) w += pick(['a', 'b', 'C', 'x', '.', '-', 'q', 'R']);
    return w;
  };
  let positives = 0;
  for (let i = 0; i < 20_000; i++) {
    const words = Array.from({ length: 1 + Math.floor(r() * 7) }, word);
    const city = words.join(pick([' ', ' ', ' ', '  ', '']));
    const text = `${pick(['', ' ', '\t'])}${city}${pick(['', ' '])}${pick([',', ', ', ',  ', ' ,', ''])}${pick(['PA', 'Texas', 'New York', 'XX', 'ca'])}${pick([' ', ', ', '', '  '])}${pick(['18901', '1890', '18901-1234', '189012', 'abcde'])}${pick(['', ' more', 'x'])}`;
    const want = reference.test(text.trim());
    positives += want ? 1 : 0;
    assert.equal(isUsCityStateZip(text), want, JSON.stringify(text));
  }
  assert.ok(positives > 100, `enough matching lines to mean something (${positives})`);
});

test('known addresses and non-addresses', () => {
  for (const t of ['Doylestown, PA 18901', 'New York, NY 10001-1234', 'St. Louis, Missouri 63101', 'Winston-Salem, NC 27101']) assert.ok(isUsCityStateZip(t), t);
  for (const t of ['Hello world', 'Doylestown PA 18901', 'abcdefghij'.repeat(100), 'A, PA 18901']) assert.ok(!isUsCityStateZip(t), t);
});
