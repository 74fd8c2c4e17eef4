// What opens a list item, a bullet or a label ("1.", "(a)", "iv."), for the three readers that ask: the
// classifier (classify.ts: text of every format), the PDF layout (pdf/layout.ts and pdf/block-types.ts:
// a line that starts an item, a block that is one) and the PDF tables (pdf/tables/: a label is no term,
// a column of labels no table). Where two readers' patterns differ, both stand here, each saying how:
// the classifier's follow the library's (its output is compared with the library's), the PDF layout's
// decide where a PDF paragraph ends, and making one serve both would change what one of them reads.

// -- the classifier: a text's start, in the library's terms --

/** Bullet characters recognised at the start of a list item (the library's UNICODE_BULLETS plus a few common glyphs). */
export const UNICODE_BULLETS = [
  '\u0095', '\u2022', '\u2023', '\u2043', '\u3164', '\u204C', '\u204D', '\u2219', '\u25CB', '\u25CF',
  '\u25D8', '\u25E6', '\u2619', '\u2765', '\u2767', '\u29BE', '\u29BF', '-', '\uF0B7', '*', '\u00B7',
  '\u25AA', '\u25A0', '\u2013', '\u27A2', '\uF0A7', '\uF076', '\uF0D8', '\u25A1', '\u2610', '\u2611', '\u2612',
];
const BULLET_CLASS = UNICODE_BULLETS.map((b) => `\\u${b.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
// A bullet is one bullet character, not a run of them ("------" is a rule, not a list item). The
// ASCII "-" and "*" and the en dash count only when followed by a space, so "-337", "*args" and
// "–output" (a command's option, LaTeX's "--") keep their text.
const SPACED_BULLETS = ['-', '*', '\u2013'];
const GLYPH_CLASS = UNICODE_BULLETS.filter((b) => !SPACED_BULLETS.includes(b))
  .map((b) => `\\u${b.charCodeAt(0).toString(16).padStart(4, '0')}`)
  .join('');
/** A bullet opening a text (the library's is_bulleted_text, with the rules above). */
export const BULLET_START = new RegExp(`^(?:[${GLYPH_CLASS}](?![${BULLET_CLASS}])|[-*\\u2013](?=\\s))`, 'u');
/** A leading bullet and the space after it, as the library's clean_bullets removes it. */
export const BULLET_STRIP = new RegExp(`^\\s*[${BULLET_CLASS}]\\s?`, 'u');
/** "1. Something" / "2) Something" (the library's is_possible_numbered_list): any number, one space. */
export const NUMBERED_ITEM = /^\d+(\.|\))\s(.+)/su;
/** Boxes to tick (a form's answers): at the start of a list item they are its answer, ticked or not. */
export const BOX_START = /^[\u25A1\u2610\u2611\u2612]/u;

// -- the PDF layout: a line that starts a new item (a paragraph ends before it) --

/**
 * A bullet at the start of a PDF line: a new list item. Not BULLET_START: fewer glyphs (none of the
 * library's rarer ones: U+3164, U+204C, U+2619, U+2765 ...), a space after each but the round and
 * square bullets ("•", "●", "▪", "□", U+F0B7), which may touch their text, and no look at what follows.
 */
export const LINE_BULLET_START = /^[\u0095\u2022\u2023\u2043\u2219\u25cb\u25cf\u25e6\u25aa\u25a0\u25a1\u2610-\u2612\uf0b7\uf0a7\u27a2\u00b7*\-\u2013]\s|^[\u2022\u25cf\u25aa\u25a1\uf0b7]/;
/**
 * A list item's label of a letter or a Roman number, in parentheses or before one: "(a) ", "b) ", "(iv) ",
 * "ii) "; a small letter and a period before a capital ("a. A nested step": a nested level's label in word
 * processors' numbered lists; a sentence's last word is no single small letter before a capital), or
 * before a word in small letters ("a. fill the pipe", items of a lettered list that go on a sentence;
 * no sentence starts so, and "a. m." is no word), a letter that is no Roman number (a formula's
 * "for all i." ends its sentence before a function's name: "i. mostfreq(q) = ...").
 */
const LETTER_LABEL = String.raw`\((?:[a-z]|[ivx]{1,4})\)|(?:[a-z]|[ivx]{1,4})\)|[a-z]\.(?=\s+\p{Lu})|[a-hj-uwyz]\.(?=\s+\p{Ll}{2})`;
/** A block that opens with a lettered label (block-types.ts: a ListItem, whatever the text reads as). */
export const LETTERED_ITEM = new RegExp(String.raw`^(?:${LETTER_LABEL})\s+\S`, 'u');
/**
 * "1. ", "2) ", "(3) ", "iv. " and the lettered labels at the start of a line: a new list item. Not
 * NUMBERED_ITEM: two digits at most, also in parentheses, Roman numbers and letters too, and a word
 * after any spaces.
 */
export const NUMBERED_START = new RegExp(String.raw`^(?:\d{1,2}[.)]|\(\d{1,2}\)|[ivx]{1,4}\.|${LETTER_LABEL})\s+\S`, 'u');

/**
 * The glyphs of a bullet set alone before its item's text, a tab stop off (word processors' lists):
 * discs, squares, arrows, a dash (LibreOffice's nested level) or an "o" (Word's), not "*" or a middle
 * dot, which stand alone between words.
 */
const LONE_BULLET_GLYPHS = String.raw`[\u0095\u2022\u2023\u2043\u2219\u25cb\u25cf\u25e6\u25aa\u25a0\u25a1\u25b6\u25ba\u2610-\u2612\u27a2\u27a4\uf0a7\uf0b7\uf0d8\uf076\u2013\-o]`;
/** A PDF segment that is a bullet's glyph and nothing else (pdf/segment-joins.ts joins it to its item). */
export const LONE_BULLET = new RegExp(String.raw`^${LONE_BULLET_GLYPHS}$`, 'u');

// -- the PDF tables: a segment that is a label and nothing else --

/** The glyphs a label of a table's first column can be: the lone bullets, an em dash, an asterisk. */
const LABEL_GLYPHS = String.raw`(?:${LONE_BULLET_GLYPHS}|[\u2014*])`;
/**
 * A list item's or a reference's label, never a term of a table of terms (tables/key-value.ts): "1.",
 * "(a)", "[12]", "•", and a bare number ("12", "iv") too: a column of numbers is no column of terms.
 */
export const ANY_LABEL = new RegExp(String.raw`^(?:[([]?[\p{N}ivxlIVXL]{1,4}[.)\]]?|[([]?\p{L}[.)\]]|${LABEL_GLYPHS})$`, 'u');
/**
 * A label marked as one by its punctuation or glyph ("1.", "2)", "(a)", "[4]", "•"): a list's, never a
 * table cell's (tables/unruled.ts: two columns of these and text are a list). Not ANY_LABEL: a bare
 * number is a table's cell as well (a row's number).
 */
export const LIST_LABEL = new RegExp(String.raw`^(?:[\p{N}]{1,3}[.)]|[([][\p{N}\p{L}]{1,4}[)\]]|\p{L}[.)]|${LABEL_GLYPHS})$`, 'u');
