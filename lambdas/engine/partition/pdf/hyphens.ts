// Words hyphenated at a line's end. Justified text breaks words at syllables ("eir-" / "mod"): the
// word is one, and is joined without its hyphen, as a reader takes it and as a search needs it. A
// compound broken at its own hyphen ("open-" / "domain") keeps it: the page's own words tell which
// (the compound written whole elsewhere on it, or a chain that already holds a hyphen, "state-of-the-").
// A break after an en or em dash set close ("1990–" / "2005") joins without a space as well.
import type { Line } from './page-text';

const HYPHEN_END = /(\p{Ll})[-\u00ad\u2010]$/u;
const OPENS_LOWER = /^\p{Ll}/u;
const DASH_END = /[\p{L}\p{N}][\u2013\u2014]$/u;
const OPENS_WORD = /^[\p{L}\p{N}]/u;
const FIGURE_HYPHEN_END = /\p{N}[-\u2010]$/u;
/** Conjunctions a suspended hyphen stands before ("pre- and post-war", "Ein- und Ausgang"). */
const CONJUNCTION = /^(?:and|und)$/;
const strip = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}-]+$/gu, '').toLowerCase();

/** The page's words that hold a hyphen, lower case, without surrounding punctuation: the compounds hyphenJoin keeps. */
export function hyphenatedWords(lines: readonly Line[]): Set<string> {
  const out = new Set<string>();
  for (const l of lines) for (const s of l.segs) for (const w of s.text.split(/\s+/)) if (w.includes('-')) out.add(strip(w));
  return out;
}

/**
 * `before` and `after` joined across a line break where `before` ends in a word hyphenated at the
 * line's end and `after` goes on in lower case; undefined otherwise (the caller joins with a space).
 */
export function hyphenJoin(before: string, after: string, compounds: ReadonlySet<string>): string | undefined {
  // a line broken after a dash set close between words or figures ("Nash–" / "Sutcliffe", "pp. 826–" /
  // "833"): the dash stays, no space comes in
  if (DASH_END.test(before) && OPENS_WORD.test(after)) return before + after;
  // a hyphen after a figure breaks no syllable: a compound broken at its own hyphen ("24-" /
  // "megapixel camera", "a 10-" / "year record") keeps it
  if (FIGURE_HYPHEN_END.test(before) && OPENS_LOWER.test(after)) return before + after;
  if (!HYPHEN_END.test(before) || !OPENS_LOWER.test(after)) return undefined;
  const left = before.slice(before.lastIndexOf(' ') + 1, -1);
  const right = after.split(/\s/, 1)[0]!;
  // a hyphen left hanging before a conjunction stands for a compound's second part ("gravel- and
  // boulder-bed streams"): the words stay apart, as written
  if (CONJUNCTION.test(right) && !before.endsWith('\u00ad')) return undefined;
  const compound = left.includes('-') || compounds.has(strip(`${left}-${right}`));
  return compound ? `${before.slice(0, -1)}-${after}` : before.slice(0, -1) + after;
}
