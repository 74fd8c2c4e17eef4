// Text helpers with Python `str.split()`/`strip()` whitespace semantics (the library normalises element
// text that way), and the mid-text splitter used for oversized elements: split on the right-most
// newline, else space, at or before the hard maximum; a single word longer than the window is cut.

/** Python's whitespace set for str.split()/strip() (JS \s differs: it has \ufeff, lacks \x1c-\x1f, \x85). */
const WS = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WS_RUN = new RegExp(`[${WS}]+`, 'g');
const WS_LEAD = new RegExp(`^[${WS}]+`);
const WS_TRAIL = new RegExp(`[${WS}]+$`);
const WS_ONE = new RegExp(`[${WS}]`);

export function isPyWhitespace(ch: string): boolean {
  return WS_ONE.test(ch);
}
export function pyStrip(s: string): string {
  return pyRstrip(pyLstrip(s));
}
export function pyLstrip(s: string): string {
  const c = s.charCodeAt(0);
  // -- fast path: most strings start with a visible ASCII character --
  if (c > 32 && c < 127) return s;
  return s.replace(WS_LEAD, '');
}
export function pyRstrip(s: string): string {
  const c = s.charCodeAt(s.length - 1);
  if (c > 32 && c < 127) return s;
  return s.replace(WS_TRAIL, '');
}
/** `" ".join(s.split())`: trims and collapses every whitespace run to one space. */
export function normalizeWhitespace(s: string): string {
  // -- most element texts are already normal: test (no allocation) before replacing --
  if (isNormalized(s)) return s;
  return pyStrip(s).replace(WS_RUN, ' ');
}

/** No leading/trailing space, no run of two spaces, no other whitespace character (a char loop: faster than a regex alternation). */
function isNormalized(s: string): boolean {
  const n = s.length;
  if (n && (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32)) return false;
  let prevSpace = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c < 127) {
      prevSpace = false;
      continue;
    }
    if (c === 32) {
      if (prevSpace) return false;
      prevSpace = true;
      continue;
    }
    prevSpace = false;
    if (c < 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000) return false;
  }
  return true;
}

/**
 * The library's text splitter for a window of `maxlen` characters with `overlap`, as a generator of
 * fragments (the first one always, then one per remainder until nothing is left). Separators are
 * tried in order ("\n" then " "); the separator is removed, and with overlap > 1 the remainder is
 * prefixed by the last `overlap - 1` characters of the fragment plus a space.
 *
 * The remainder is never built as a string: it is kept as a short `head` (at most `overlap`
 * characters) followed by `text` from `pos`, and each step looks only at a window of `maxlen + 1`
 * characters. Building it (`${tail} ${rest}`) made every step copy the whole rest of the text, which
 * is quadratic, and every fragment kept its copy alive: 1 MB of text with max 100 / overlap 90 ran
 * the process out of memory.
 */
export function* splitText(text: string, maxlen: number, overlap: number, separators: readonly string[] = ['\n', ' ']): Generator<string> {
  const n = text.length;
  const sepMax = Math.max(1, ...separators.map((sep) => sep.length));
  let head = '';
  let pos = 0;
  /** Python lstrip of the logical string head + text[pos:]. */
  const lstrip = (h: string, p: number): [string, number] => {
    h = pyLstrip(h);
    if (h) return [h, p];
    while (p < n && isPyWhitespace(text[p]!)) p++;
    return ['', p];
  };
  for (let first = true; ; first = false) {
    const len = head.length + n - pos;
    // -- the first fragment always; after it, an empty remainder ends the text --
    if (len === 0 && !first) return;
    if (len <= maxlen) {
      yield head + text.slice(pos);
      return;
    }
    const window = head + text.slice(pos, pos + maxlen + sepMax - head.length);
    let done = false;
    for (const sep of separators) {
      const start = window.lastIndexOf(sep, maxlen);
      if (start < overlap + 1) continue;
      // -- start > head.length: the head is at most `overlap` long, so the separator is in text --
      const fragment = pyRstrip(window.slice(0, start));
      const [, rawPos] = lstrip('', pos + start - head.length + sep.length);
      let nextHead = '';
      if (overlap > 1) nextHead = `${pyLstrip(fragment.slice(-(overlap - 1)))} `;
      if (!fragment || nextHead.length + n - rawPos >= len) continue;
      yield fragment;
      head = nextHead;
      pos = rawPos;
      done = true;
      break;
    }
    if (done) continue;
    // -- no separator in range: cut mid-word (only when a single word exceeds the window) --
    let cut = maxlen;
    // -- never split a UTF-16 surrogate pair --
    if (cut > 1 && isLowSurrogate(window.charCodeAt(cut))) cut -= 1;
    let from = maxlen - overlap;
    if (from > 1 && isLowSurrogate(window.charCodeAt(from))) from -= 1;
    yield pyRstrip(window.slice(0, cut));
    [head, pos] = from >= head.length ? lstrip('', pos + from - head.length) : lstrip(head.slice(from), pos);
  }
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
