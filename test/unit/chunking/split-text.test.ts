// splitText (a generator over positions in the original text) must cut exactly where the library's
// splitter did when it rebuilt the remainder as a string at each step: this test keeps that previous
// implementation as the oracle and compares fragment by fragment on seeded random texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pyLstrip, pyRstrip, splitText } from '../../../lambdas/engine/chunking/text';

/** The previous splitter: (fragment, remainder), remainder built as a new string each step. */
function referenceSplitter(maxlen: number, overlap: number, separators: readonly string[] = ['\n', ' ']) {
  const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
  return (s: string): [string, string] => {
    if (s.length <= maxlen) return [s, ''];
    for (const sep of separators) {
      const start = s.lastIndexOf(sep, maxlen);
      if (start < overlap + 1) continue;
      const fragment = pyRstrip(s.slice(0, start));
      const raw = pyLstrip(s.slice(start + sep.length));
      let remainder = raw;
      if (overlap > 1) remainder = `${pyLstrip(fragment.slice(-(overlap - 1)))} ${raw}`;
      if (!fragment || remainder.length >= s.length) continue;
      return [fragment, remainder];
    }
    let cut = maxlen;
    if (cut > 1 && isLow(s.charCodeAt(cut))) cut -= 1;
    let from = maxlen - overlap;
    if (from > 1 && isLow(s.charCodeAt(from))) from -= 1;
    return [pyRstrip(s.slice(0, cut)), pyLstrip(s.slice(from))];
  };
}

function referenceSplitAll(text: string, maxlen: number, overlap: number): string[] {
  const split = referenceSplitter(maxlen, overlap);
  let [s, rest] = split(text);
  const out = [s];
  while (rest) {
    [s, rest] = split(rest);
    out.push(s);
  }
  return out;
}

/** mulberry32: a small seeded generator, so every run checks the same texts. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'bc', 'word', 'longerword', ' ', '  ', '\n', '\n\n', '\t', '\u00a0', '😀', 'é', 'x'.repeat(40), ' \n '];

test('splitText cuts exactly as the previous splitter on 3,000 seeded texts', () => {
  const rand = rng(42);
  for (let i = 0; i < 3000; i++) {
    const parts: string[] = [];
    const n = Math.floor(rand() * 80);
    for (let k = 0; k < n; k++) parts.push(PIECES[Math.floor(rand() * PIECES.length)]!);
    const text = parts.join('');
    const maxlen = 1 + Math.floor(rand() * 30);
    const overlap = rand() < 0.4 ? 0 : Math.floor(rand() * maxlen);
    const expected = referenceSplitAll(text, maxlen, overlap);
    const actual = [...splitText(text, maxlen, overlap)];
    assert.deepEqual(actual, expected, `text ${JSON.stringify(text)} max ${maxlen} overlap ${overlap}`);
  }
});

test('a long text with a large overlap: the same fragments, none above the window', () => {
  const text = 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n'.repeat(400);
  const actual = [...splitText(text, 100, 90)];
  assert.deepEqual(actual, referenceSplitAll(text, 100, 90));
  assert.ok(actual.length > 1000 && actual.every((s) => s.length <= 100));
});
