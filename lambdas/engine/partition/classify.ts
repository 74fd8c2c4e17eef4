// Text-type heuristics used to classify free text (plain-text lines, PDF lines, HTML blocks) into
// element types. A port of the ideas in the open-source library's partition/text_type.py and
// nlp/patterns.py: the same thresholds and checks, with lightweight stand-ins for NLTK's sentence
// tokenizer, word tokenizer and part-of-speech tagger (only "does it contain a verb" is needed).
import type { ElementType } from '../elements';
import { BOX_START, BULLET_START, BULLET_STRIP, NUMBERED_ITEM } from './list-labels';

export interface ClassifyOptions {
  /** ISO 639-3 / 639-1 codes; the verb check only applies to English (the library's behaviour). */
  languages?: string[];
  /** Share of capitalised words above which text is not narrative (default 0.5). */
  capThreshold?: number;
  /** Minimum share of alphabetic characters (non-space) for narrative text and titles (default 0.5). */
  nonAlphaThreshold?: number;
  /** Maximum words in a title (default 12). */
  titleMaxWordLength?: number;
  /** Minimum words for a sentence to count against a title (default 5). */
  sentenceMinLength?: number;
  /** Also recognise "Page 3" / "3 of 10" style text as PageNumber (off by default, like the library). */
  detectPageNumbers?: boolean;
  /**
   * The text is a block found by page layout analysis (PDF, OCR). The library types such blocks with
   * its layout model, not with these heuristics, and the model reads author lists and all-caps
   * paragraphs as text; the heuristics then stand in for the model and keep the older, looser cap
   * ratio (all tokens counted, all-uppercase text not excluded) instead of the current one.
   */
  layoutBlock?: boolean;
}

// ---------- character-class helpers (Python str semantics) ----------

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}|\p{Lt}/u;
const LOWER = /\p{Ll}/u;
const CASED = /\p{Lu}|\p{Ll}|\p{Lt}/u;

/** Python's str.isnumeric(): non-empty and every character numeric. */
export function isNumeric(text: string): boolean {
  return text.length > 0 && /^\p{N}+$/u.test(text);
}

/** Python's str.isupper(): at least one cased character and no lowercase one. */
export function isUpper(text: string): boolean {
  return text === text.toUpperCase() && text !== text.toLowerCase();
}

/** Most of the text's letters have case (Latin, Greek, Cyrillic...), not a script without it. */
function mostlyCased(text: string): boolean {
  let letters = 0, cased = 0;
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    letters++;
    if (CASED.test(ch)) cased++;
  }
  return cased * 2 >= letters;
}

/** Python's str.istitle(). */
export function isTitleCase(text: string): boolean {
  let cased = false;
  let prevCased = false;
  for (const ch of text) {
    if (UPPER.test(ch)) {
      if (prevCased) return false;
      prevCased = true;
      cased = true;
    } else if (LOWER.test(ch)) {
      if (!prevCased) return false;
      prevCased = true;
      cased = true;
    } else {
      prevCased = false;
    }
  }
  return cased;
}

// ---------- tokenisation stand-ins ----------

const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'inc', 'ltd', 'co',
  'corp', 'no', 'fig', 'al', 'u.s', 'u.k', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep',
  'sept', 'oct', 'nov', 'dec', 'approx', 'dept', 'est', 'gen', 'gov', 'rev', 'vol', 'p', 'pp',
]);

/** Sentence splitting in the spirit of NLTK's punkt: split after . ! ? followed by space and a capital/digit/quote. */
export function sentTokenize(text: string): string[] {
  const out: string[] = [];
  // -- a match starts where a run of . ! ? starts (the lookbehind): tried from inside a run too, a run
  // -- of 10,000 dots cost a scan to its end from every position (0.7 s) --
  const re = /(?<![.!?])[.!?]+["')\]\u201d\u2019]*\s+(?=["'(\[\u201c\u2018]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const end = m.index + m[0].length;
    // -- the word before the stop, from a bounded tail: an abbreviation is short, and the whole text since
    // -- the last break made every "Mr." of a long paragraph rescan it --
    const before = text.slice(Math.max(start, m.index + 1 - 64), m.index + 1);
    const lastWord = /([\p{L}.]+)\.$/u.exec(before)?.[1]?.toLowerCase() ?? '';
    // Abbreviations and single initials ("J. Smith") do not end a sentence.
    if (m[0].startsWith('.') && (ABBREVIATIONS.has(lastWord) || /^\p{L}$/u.test(lastWord))) continue;
    const s = text.slice(start, end).trim();
    if (s) out.push(s);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** Word tokens like NLTK's word_tokenize: words (with inner apostrophes/hyphens/dots) and punctuation marks. */
export function wordTokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+(?:['\u2019.\-][\p{L}\p{N}_]+)*|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/** Removes every Unicode punctuation character (the library's remove_punctuation). */
export function removePunctuation(text: string): string {
  return text.replace(/\p{P}/gu, '');
}

// The predicates ask for sentence counts of the same text several times in a row: keep the last one.
let countsFor: string | undefined;
let countsCache: number[] = [];
function sentenceWordCounts(text: string): number[] {
  if (text !== countsFor) {
    countsCache = sentTokenize(text).map((s) => wordTokenize(removePunctuation(s)).filter((w) => w !== '.').length);
    countsFor = text;
  }
  return countsCache;
}

/** Number of sentences; with minLength, only sentences with at least that many words count. */
export function sentenceCount(text: string, minLength?: number): number {
  let count = 0;
  for (const words of sentenceWordCounts(text)) {
    if (minLength && words < minLength) continue;
    count++;
  }
  return count;
}

// ---------- the library's predicates ----------

/** True when the share of alphabetic characters (spaces ignored) is below the threshold. */
const NOT_SPACE = /\S/u;

export function underNonAlphaRatio(text: string, threshold = 0.5): boolean {
  if (text.length === 0) return false;
  // counted in one pass: text.match(/\S/gu) made an array of every character (40 million for a 40 MB line)
  let total = 0;
  let alpha = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      // ASCII without a regular expression: whitespace is \t-\r and space
      if (c === 32 || (c >= 9 && c <= 13)) continue;
      total++;
      if ((c | 0x20) >= 97 && (c | 0x20) <= 122) alpha++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const ch = String.fromCodePoint(cp);
    if (NOT_SPACE.test(ch)) {
      total++;
      if (LETTER.test(ch)) alpha++;
    }
  }
  if (total === 0) return false;
  return alpha / total < threshold;
}

/** Python's str.isalpha(): non-empty and every character a letter. */
function isAlpha(text: string): boolean {
  return /^\p{L}+$/u.test(text);
}

/**
 * True when more than `threshold` of the words of a single sentence are capitalised. As the current
 * library: all-uppercase text exceeds the ratio, only alphabetic tokens are counted ("ITEM 1.
 * Financial Statements (Unaudited)" is measured on its words), and text without any word exceeds it.
 */
export function exceedsCapRatio(text: string, threshold = 0.5, layoutBlock = false): boolean {
  if (sentenceCount(text, 3) > 1) return false;
  // (all capitals only where letters have case: a Hebrew or Arabic sentence naming "PDF" is not)
  if (isUpper(text) && mostlyCased(text)) return !layoutBlock;
  const tokens = layoutBlock ? wordTokenize(text) : wordTokenize(text).filter(isAlpha);
  if (tokens.length === 0) return !layoutBlock;
  let capitalized = 0;
  for (const t of tokens) if (isTitleCase(t) || isUpper(t)) capitalized++;
  return capitalized / tokens.length > threshold;
}

const VERBS = new Set(
  (
    'is are was were be been being am has have had having do does did done doing can could will would ' +
    'shall should may might must need needs ought ' +
    'get gets got go goes went gone make makes made take takes took taken see sees saw seen come comes came ' +
    'know knows knew known think thinks thought say says said tell tells told give gives gave given find finds ' +
    'found use uses want wants look looks seem seems feel feels felt leave leaves left put puts keep keeps kept ' +
    'let lets begin begins began begun show shows shown hear hears heard run runs ran hold holds held bring ' +
    'brings brought write writes wrote written provide provides stand stands stood lose loses lost pay pays paid ' +
    'meet meets met include includes continue continues set sets learn learns change changes lead leads led ' +
    'understand understands understood follow follows stop stops create creates speak speaks spoke spoken read ' +
    'reads allow allows add adds spend spends spent grow grows grew grown open opens walk walks win wins won ' +
    'offer offers remember remembers love loves consider considers appear appears buy buys bought wait waits ' +
    'serve serves die dies send sends sent expect expects build builds built stay stays fall falls fell cut cuts ' +
    'reach reaches kill kills remain remains suggest suggests raise raises pass passes sell sells sold require ' +
    'requires report reports decide decides pull pulls contains contain describes describe represents represent ' +
    'helps help works work tries try calls call asks ask means mean becomes become became turns turn moves move ' +
    'lives live believes believe happens happen sits sit lies lie plays play enjoy enjoys click press enter ' +
    'select choose chose chosen drive drove driven eat ate eaten drink drank fly flew flown sing sang swim swam ' +
    'wear wore worn sleep slept catch caught teach taught fight fought think seek sought sent hit hits shut ' +
    'please ensure note see refer check update install download submit apply forget forgets forgot forgotten'
  ).split(' '),
);
const NOT_VERBS_ING_ED = new Set(
  ('thing things nothing something anything everything morning evening ring king spring string wing ceiling ' +
    'building during bed red need seed feed shed speed weed hundred kindred sled fled bred breed greed ' +
    'united limited interested sacred wicked naked rugged ragged').split(' '),
);

const DETERMINERS = new Set('a an the this that these those his her its their our my your each every some any no of for in on with by'.split(' '));

/** Stand-in for the library's POS-tagger check: does the text contain a verb form? */
export function containsVerb(text: string): boolean {
  const t = isUpper(text) ? text.toLowerCase() : text;
  const words = wordTokenize(t);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.toLowerCase().replace(/['\u2019]s$/u, '');
    if (VERBS.has(w)) return true;
    // a contraction holds a verb ("don't", "can’t", "we're", "I'll", "they've": the tagger splits off do, ca, 're...)
    if (/^\p{L}+(?:n['\u2019]t|['\u2019](?:re|ve|ll|m|d))$/u.test(w)) return true;
    if (/^[a-z]+$/.test(w) && !NOT_VERBS_ING_ED.has(w)) {
      const prev = i > 0 ? words[i - 1]!.toLowerCase() : '';
      // after a determiner an -ing/-ed word is an adjective or noun ("a standing trustee")
      const afterDeterminer = DETERMINERS.has(prev);
      if (!afterDeterminer && w.length > 4 && w.endsWith('ing')) return true;
      if (!afterDeterminer && w.length > 3 && w.endsWith('ed')) return true;
      // third-person -s after a pronoun ("it runs", "she says")
      if (w.length > 2 && w.endsWith('s') && /^(he|she|it|this|that|which|who|one|everyone|nobody|somebody)$/.test(prev)) return true;
      // modal/pronoun followed by a bare verb ("we went", "you can")
      if (/^(i|we|you|they)$/.test(prev) && w.length > 1 && !/^(and|or|the|a|an|of|to|in)$/.test(w)) return true;
    }
  }
  return false;
}

const ENGLISH_STOPWORDS = new Set(
  ('the of and to in is are was were be for on with that this it as at by from or an not have has ' +
    'will can which their there these those you your we our they he she his her its').split(' '),
);

/**
 * Whether the English-only verb check applies. With requested languages: when English is among them.
 * Without (auto-detection, the library detects per element): short text, or text containing an English
 * function word, is treated as English; longer text without any reads as another language.
 */
function verbCheckApplies(text: string, languages?: string[]): boolean {
  if (languages && languages.length && !languages.includes('auto')) return languages.some((l) => l === 'eng' || l === 'en');
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length <= 3 || !/\s/.test(text.trim())) return true;
  if (words.some((w) => ENGLISH_STOPWORDS.has(w))) return true;
  // typographic quotes, dashes and ellipses are English punctuation too
  return /^[\x00-\x7f]*$/.test(text.replace(/[\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00a0]/g, '')) && words.length <= 6;
}

export function isPossibleNarrativeText(text: string, opts: ClassifyOptions = {}): boolean {
  if (text.length === 0) return false;
  if (isNumeric(text)) return false;
  if (exceedsCapRatio(text, opts.capThreshold ?? 0.5, opts.layoutBlock)) return false;
  if (underNonAlphaRatio(text, opts.nonAlphaThreshold ?? 0.5)) return false;
  if (sentenceCount(text, 3) < 2 && verbCheckApplies(text, opts.languages) && !containsVerb(text) && !fullSentence(text)) return false;
  return true;
}

/**
 * A sentence as written: a capital first (after an opening quote or dash), a word of three small
 * letters or more and closing punctuation last ("et al." is no sentence's end), four words or more
 * (`minWords`). The library asks its part-of-speech tagger for a verb; a word list cannot know every
 * verb ("Ducks paddle about the lake."), and a sentence so set is prose whatever its words.
 */
export function fullSentence(text: string, minWords = 4): boolean {
  return /^["'\u201c\u2018(\-\u2013\u2014]?\p{Lu}/u.test(text) && /\p{Ll}{3,}[.!?]["'\u201d\u2019)]?$/u.test(text) && text.split(/\s+/).length >= minWords;
}

/** The library's ENDS_IN_PUNCT_RE: the last character is neither a word character nor a space. */
const ENDS_IN_PUNCT_RE = /[^\p{L}\p{N}_\s]$/u;

export function isPossibleTitle(text: string, opts: ClassifyOptions = {}): boolean {
  if (text.length === 0) return false;
  // all-uppercase text ending in punctuation ("WARNING!", "GALAXY GAMING, INC.") is not a title
  if (isUpper(text) && ENDS_IN_PUNCT_RE.test(text)) return false;
  if (text.split(' ').length > (opts.titleMaxWordLength ?? 12)) return false;
  if (underNonAlphaRatio(text, opts.nonAlphaThreshold ?? 0.5)) return false;
  if (text.endsWith(',')) return false;
  // -- a form's blank to fill in ("_______ at the national level") is never a heading --
  if (/_{3,}/.test(text)) return false;
  if (isNumeric(text)) return false;
  if (sentenceCount(text, opts.sentenceMinLength ?? 5) > 1) return false;
  return true;
}

export function isBulletedText(text: string): boolean {
  return BULLET_START.test(text.trim());
}

/** "1. Something" / "2) Something" (the library's is_possible_numbered_list). */
export function isPossibleNumberedList(text: string): boolean {
  return NUMBERED_ITEM.test(text.trim());
}

/** Removes a leading bullet character (and the space after it), like the library's clean_bullets. */
export function stripBullet(text: string): string {
  const t = text.trim();
  if (!BULLET_START.test(t)) return t;
  return t.replace(BULLET_STRIP, '').trim();
}

/** A list item's text without its bullet, as the library's clean_bullets leaves it; a box to tick stays. */
export function listItemText(text: string): string {
  return BOX_START.test(text.trim()) ? text.trim() : stripBullet(text) || text.trim();
}

const US_STATES =
  'Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|' +
  'Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|' +
  'Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|' +
  'North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|' +
  'South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming';
const US_STATE_CODES =
  'AL|AK|AS|AZ|AR|CA|CO|CT|DE|DC|FM|FL|GA|GU|HI|ID|IL|IN|IA|KS|KY|LA|ME|MH|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|' +
  'NJ|NM|NY|NC|ND|MP|OH|OK|OR|PW|PA|PR|RI|SC|SD|TN|TX|UT|VT|VI|VA|WA|WV|WI|WY';
/** The library's pattern, kept as the reference (tests): `^(?:[A-Z][a-z.-]{1,15} ?){1,5},` then the state and ZIP, case-insensitive. */
export const US_CITY_STATE_ZIP_SOURCE = `^(?:[A-Z][a-z.-]{1,15} ?){1,5},\\s?(?:${US_STATES}|${US_STATE_CODES})(?:, |\\s)?\\b\\d{5}(?:-\\d{4})?\\b`;
/** What follows the city's comma, matched by a regex (it cannot backtrack far). */
const STATE_ZIP_RE = new RegExp(`^\\s?(?:${US_STATES}|${US_STATE_CODES})(?:, |\\s)?\\b\\d{5}(?:-\\d{4})?\\b`, 'i');
const CITY_CHARS_RE = /^[a-z.-]+$/i;
const LETTER_RE = /[a-z]/i;

/**
 * Fewest groups `[A-Z][a-z.-]{1,15}` (case-insensitive: a letter, then 1-15 letters, dots or dashes)
 * that make up a word, or Infinity. A table over the word's positions: linear, where the regex's
 * `(?:…){1,5}` tried every way to cut a long run of letters (46 ms for one 1,000-letter line).
 */
function fewestCityGroups(word: string): number {
  if (!CITY_CHARS_RE.test(word)) return Infinity;
  const best = new Array<number>(word.length + 1).fill(Infinity);
  best[0] = 0;
  for (let i = 0; i < word.length; i++) {
    if (best[i] === Infinity || !LETTER_RE.test(word[i]!)) continue;
    for (let len = 2; len <= 16 && i + len <= word.length; len++) best[i + len] = Math.min(best[i + len]!, best[i]! + 1);
  }
  return best[word.length]!;
}

/**
 * "Doylestown, PA 18901" and the like: the library's pattern (US_CITY_STATE_ZIP_SOURCE), decided in
 * linear time. Its city part `(?:[A-Z][a-z.-]{1,15} ?){1,5}` is everything before the first comma
 * (none of its characters is one): words joined by single spaces, an optional space last, that cut
 * into at most five groups.
 */
export function isUsCityStateZip(text: string): boolean {
  const t = text.trim();
  const comma = t.indexOf(',');
  if (comma <= 0 || comma > 5 * 17) return false;
  const city = t.slice(0, comma);
  let groups = 0;
  for (const w of (city.endsWith(' ') ? city.slice(0, -1) : city).split(' ')) {
    groups += w ? fewestCityGroups(w) : Infinity;
    if (groups > 5) return false;
  }
  return STATE_ZIP_RE.test(t.slice(comma + 1));
}

const EMAIL_RE = /^[a-z0-9.\-+_]+@[a-z0-9.\-+_]+\.[a-z]+$/i;
export function isEmailAddress(text: string): boolean {
  return EMAIL_RE.test(text.trim());
}

const PAGE_NUMBER_RE =
  /^(?:(?:page|pg\.?|p\.)\s*)?[-\u2013\u2014(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014)\]]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;
/** A caption's label: "Figure 3", "Table 1", "FIG. 2", "Tab. 4a", "Chart IV", "Table: 5". */
const CAPTION_LABEL_SRC = String.raw`^(?:fig(?:ure)?|table|tab|chart|graph|diagram|plate)[.:]?\s*[0-9IVX]+[a-z]?`;
/** A line that opens with a caption's label (a caption line split after its label, a table's title run). */
export const CAPTION_LABEL = new RegExp(CAPTION_LABEL_SRC, 'i');
/** The start of a caption, its label and punctuation: "Figure 3:", "Table 1.", "FIG. 2 –", "Chart IV -". */
export const CAPTION_START = new RegExp(String.raw`${CAPTION_LABEL_SRC}\s*[:.\u2013\u2014-]`, 'i');

/** Page-number-like text: "3", "- 3 -", "Page 3", "Page 3 of 10", "iv". */
export function isPageNumberLike(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length <= 20 && PAGE_NUMBER_RE.test(t);
}

/**
 * Element type for a block of free text, in the library's order of checks (element_from_text):
 * bullet → ListItem, e-mail → EmailAddress, city/state/zip → Address, numbered item → ListItem,
 * narrative → NarrativeText, title → Title, else UncategorizedText.
 */
export function classifyText(text: string, opts: ClassifyOptions = {}): ElementType {
  const t = text.trim();
  if (t.length === 0) return 'UncategorizedText';
  if (isBulletedText(t)) return 'ListItem';
  if (isEmailAddress(t)) return 'EmailAddress';
  if (isUsCityStateZip(t)) return 'Address';
  if (opts.detectPageNumbers && isPageNumberLike(t)) return 'PageNumber';
  if (isPossibleNumberedList(t)) return 'ListItem';
  if (isPossibleNarrativeText(t, opts)) return 'NarrativeText';
  if (isPossibleTitle(t, opts)) return 'Title';
  return 'UncategorizedText';
}
