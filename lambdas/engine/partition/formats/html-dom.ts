// What of an HTML page is its text: elements a browser shows no text of (scripts, navigation, hidden
// elements, footnote back-links, permalink signs, the labels Word draws before its list items) and
// characters it draws nothing for. Shared by the page's walk (html.ts) and its tables (html-tables.ts).
import { isTag, type DomElement, type DomNode } from './common';
import { isWordListLabel } from './html-word-lists';

const DROP = new Set([
  'script', 'style', 'nav', 'head', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'canvas',
  'select', 'button', 'input', 'textarea', 'map', 'audio', 'video', 'title', 'meta', 'link',
]);
/** A footnote's link back to where it is cited ("↩︎", "^"): navigation, no text of the note (pandoc, Python-Markdown, MediaWiki). */
const BACKLINK_CLASS = /(?:^|\s)(?:footnote-back(?:ref)?|mw-cite-backlink)(?:\s|$)/;
/**
 * Elements whose text is not the document's: DROP's, footnote back-links, and elements marked `hidden`
 * (a browser renders none of them: a closed dialog's, a template's or an inactive tab's text).
 */
export const dropped = (n: DomElement, name: string): boolean =>
  DROP.has(name) || n.attribs['hidden'] !== undefined || n.attribs['role'] === 'doc-backlink' || BACKLINK_CLASS.test(n.attribs['class'] ?? '') ||
  (name === 'a' && permalink(n)) || isWordListLabel(n);

/** A sign a documentation site links a heading or caption to itself with ("Install¶", "Usage #"). */
const PERMALINK_SIGN = /^[\s\u200b]*[\u00b6\u00a7#\u{1f517}\u2693]?[\s\u200b]*$/u;
/** A link to a place on the same page whose text is only a permalink sign (or none): navigation, no text of the heading. */
function permalink(a: DomElement): boolean {
  if (!(a.attribs['href'] ?? '').startsWith('#')) return false;
  let text = '';
  const walk = (n: DomNode): void => {
    if (text.length > 4) return;
    if (isTag(n)) { if (n.name.toLowerCase() !== 'img') n.children.forEach(walk); else text += 'x'; }
    else if (n.type === 'text') text += (n as { data: string }).data;
  };
  a.children.forEach(walk);
  return PERMALINK_SIGN.test(text);
}

/**
 * Characters a browser draws nothing for: soft hyphens (a hyphen only where a line breaks), zero-width
 * spaces, word joiners and stray byte-order marks. Left in, they split words for search ("de\u00adscribes").
 * The joiners that shape a script's letters (ZWJ, ZWNJ) stay.
 */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/g;
export const shownText = (s: string): string => s.replace(INVISIBLE, '');
