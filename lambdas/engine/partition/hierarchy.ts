// Element hierarchy, one step for every format (run by post-process.ts on a whole document, after a
// job's page ranges are merged): `metadata.category_depth` of titles laid out from text sizes (PDF,
// OCR), then `metadata.parent_id` as the open-source library's `set_element_hierarchy` sets it.
//
// The library's rule: walk the elements with a stack; an element's parent is the nearest element on
// the stack that either has the same type and a smaller category_depth (a missing depth counts as 0),
// or whose type's rule set lists the element's type (a Title holds text, list items, tables...; a
// Header also holds Titles). Everything above that parent is popped, and the element is pushed. An
// element of a type no rule lists (Image, Footer, PageBreak, CodeSnippet, Formula...) empties the stack,
// so what follows it has no parent until the next Title. An element that already has a parent_id (set
// by its partitioner, or by a nested document's own pass) keeps it and is not pushed.
import type { Element } from '../elements';

const SECTION_CONTENT = ['UncategorizedText', 'NarrativeText', 'ListItem', 'Table', 'FigureCaption', 'CheckBox'];

/** Which types an element of a type may parent (the library's HIERARCHY_RULE_SET). */
export const HIERARCHY_RULES: Readonly<Record<string, readonly string[]>> = {
  Title: SECTION_CONTENT,
  Header: ['Title', ...SECTION_CONTENT],
};

/**
 * Metadata key a layout partitioner (pdf/layout.ts) puts on a Title: its text size in points (or
 * pixels of an image). Internal: `rankTitleDepths` turns it into category_depth and removes it.
 */
export const TITLE_SIZE_KEY = 'title_text_size';

/** Sizes within this fraction of a level's largest size are one heading level (OCR sizes wobble). */
const SAME_LEVEL = 0.1;

/** Sets parent_id of every element that has none (see the file header); returns the same array. */
export function setElementHierarchy(elements: Element[]): Element[] {
  const stack: Element[] = [];
  for (const el of elements) {
    if (el.metadata.parent_id !== undefined) continue;
    const depth = el.metadata.category_depth ?? 0;
    let parent: string | undefined;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const sameKindShallower = top.type === el.type && (top.metadata.category_depth ?? 0) < depth;
      if (sameKindShallower || (top.type !== el.type && HIERARCHY_RULES[top.type]?.includes(el.type))) {
        parent = top.element_id;
        break;
      }
      stack.pop();
    }
    if (parent !== undefined) el.metadata.parent_id = parent;
    stack.push(el);
  }
  return elements;
}

/**
 * category_depth of Titles that carry a text size (TITLE_SIZE_KEY) and no depth yet: the rank of
 * their size among the document's title sizes, largest 0, sizes within SAME_LEVEL of a level's
 * largest one level. Removes the key from every element.
 */
export function rankTitleDepths(elements: Element[]): Element[] {
  const sizes: number[] = [];
  for (const el of elements) {
    const s = el.metadata[TITLE_SIZE_KEY];
    if (el.type === 'Title' && el.metadata.category_depth === undefined && typeof s === 'number' && Number.isFinite(s) && s > 0) sizes.push(s);
  }
  if (!sizes.length) {
    for (const el of elements) delete el.metadata[TITLE_SIZE_KEY];
    return elements;
  }
  const distinct = [...new Set(sizes)].sort((a, b) => b - a);
  const level = new Map<number, number>();
  let top = distinct[0]!;
  let rank = 0;
  for (const s of distinct) {
    if (s < top * (1 - SAME_LEVEL)) {
      rank++;
      top = s;
    }
    level.set(s, rank);
  }
  const numbered: [Element, number][] = [];
  for (const el of elements) {
    const s = el.metadata[TITLE_SIZE_KEY];
    if (s === undefined) continue;
    delete el.metadata[TITLE_SIZE_KEY];
    if (el.type !== 'Title' || el.metadata.category_depth !== undefined || typeof s !== 'number') continue;
    const d = level.get(s);
    if (d === undefined) continue;
    el.metadata.category_depth = d;
    const parts = sectionNumberParts(el.text);
    if (parts) numbered.push([el, parts]);
  }
  // Numbered headings nest by their numbers ("1.1.1" under "1.1" under "1"), which sizes may not tell
  // (a third level set bold at the body's size, as the second's): their depth counts from that of the
  // headings with the fewest parts.
  if (numbered.length >= 2 && new Set(numbered.map(([, n]) => n)).size >= 2) {
    const fewest = Math.min(...numbered.map(([, n]) => n));
    const base = Math.max(0, Math.min(...numbered.filter(([, n]) => n === fewest).map(([el]) => el.metadata.category_depth!)) - (fewest - 1));
    for (const [el, n] of numbered) el.metadata.category_depth = base + n - 1;
  }
  return elements;
}

/** How many parts a heading's section number has ("2" 1, "3.1" 2, "A.2.1" 3); 0 when it has none. */
function sectionNumberParts(text: string): number {
  const m = /^(\d{1,2}(?:\.\d{1,2})*|[A-Z](?:\.\d{1,2})+)\.?\s+\S/.exec(text);
  return m ? m[1]!.split('.').length : 0;
}
