// Review comments of a slide: the classic parts (ppt/comments/commentN.xml: p:cm with authorId, dt and
// p:text; authors in ppt/commentAuthors.xml) and the modern threaded ones (ppt/comments/modernComment_*.xml:
// p188:cm with authorId, created and a DrawingML txBody, replies in p188:replyLst; authors in
// ppt/authors.xml), reached through the slide's relationships. Each comment (and each reply, after its
// comment) is one NarrativeText "[author: Name (Initials), time: ...]: text": said by someone about the
// slide, not the slide's own text, and the attribution is part of what a reader needs.
import { makeElement, type Element, type ElementMetadata } from '../../elements';
import { childElements, descendants, firstChild, localName, parseXml, textContent, zipText, type DomElement } from './common';

export interface Author {
  name: string;
  initials: string;
}

/** Authors of both comment kinds by id (classic: a number; modern: a GUID). */
export function commentAuthors(files: Map<string, Uint8Array>): Map<string, Author> {
  const out = new Map<string, Author>();
  for (const part of ['ppt/commentAuthors.xml', 'ppt/authors.xml']) {
    const xml = zipText(files, part);
    if (!xml) continue;
    const doc = parseXml(xml);
    for (const a of [...descendants(doc, 'cmAuthor'), ...descendants(doc, 'author')]) {
      const id = a.attribs['id'];
      if (id !== undefined) out.set(id, { name: a.attribs['name'] ?? '', initials: a.attribs['initials'] ?? '' });
    }
  }
  return out;
}

function label(author: Author | undefined, time: string | undefined): string {
  const who = author?.name ? (author.initials ? `${author.name} (${author.initials})` : author.name) : author?.initials ?? '';
  const parts = [who && `author: ${who}`, time && `time: ${time}`].filter(Boolean);
  return parts.length ? `[${parts.join(', ')}]: ` : '';
}

/** One comment (or reply) as a NarrativeText "[author: ..., time: ...]: text"; undefined when it has no text. */
export function commentElement(author: Author | undefined, time: string | undefined, text: string, md: ElementMetadata): Element | undefined {
  const t = text.replace(/[ \t]+/g, ' ').trim();
  return t ? makeElement('NarrativeText', label(author, time) + t, { ...md }) : undefined;
}

/** Paragraph texts of a DrawingML text body, one line each. */
function bodyText(body: DomElement): string {
  return childElements(body, 'p')
    .map((p) => descendants(p, 't').map((t) => textContent(t)).join('').trim())
    .filter(Boolean)
    .join('\n');
}

/** The comments of one comment part, in document order (a modern comment's replies follow it). */
export function commentElements(xml: string, authors: Map<string, Author>, md: ElementMetadata): Element[] {
  const out: Element[] = [];
  const push = (c: DomElement, text: string, time: string | undefined): void => {
    const el = commentElement(authors.get(c.attribs['authorId'] ?? ''), time, text, md);
    if (el) out.push(el);
  };
  const root = childElements(parseXml(xml)).find((e) => localName(e) === 'cmLst');
  for (const cm of root ? childElements(root, 'cm') : []) {
    const classic = firstChild(cm, 'text');
    if (classic) {
      push(cm, textContent(classic), cm.attribs['dt']);
      continue;
    }
    const body = firstChild(cm, 'txBody');
    if (body) push(cm, bodyText(body), cm.attribs['created']);
    const replies = firstChild(cm, 'replyLst');
    for (const reply of replies ? childElements(replies, 'reply') : []) {
      const rb = firstChild(reply, 'txBody');
      if (rb) push(reply, bodyText(rb), reply.attribs['created']);
    }
  }
  return out;
}

/** The comment parts a slide's relationships point to (classic and modern). */
export function slideCommentParts(slideRelTargets: Iterable<string>): string[] {
  return [...slideRelTargets].filter((t) => /(^|\/)comments\/[^/]+\.xml$/.test(t));
}
