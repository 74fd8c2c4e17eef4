// Where an Office Open XML package keeps its main part. The package's own relationships (_rels/.rels)
// name it (ECMA-376 Part 2: the target of the officeDocument relationship); its usual name
// (word/document.xml) is only a convention: Word for the web and SharePoint save "word/document2.xml".
// A part's relationships live beside it, in _rels/<name>.rels.
import { posix } from 'node:path';
import { childElements, firstChild, parseXml, zipText } from './common';

const OFFICE_DOCUMENT = /\/officeDocument$/;

/**
 * The package path of the main part: the officeDocument relationship's target when that part is in
 * the package, else `conventional`.
 */
export function mainPartPath(files: Map<string, Uint8Array>, conventional: string): string {
  const root = firstChild(parseXml(zipText(files, '_rels/.rels') ?? ''), 'Relationships');
  for (const r of root ? childElements(root, 'Relationship') : []) {
    const target = r.attribs['Target'];
    if (!target || r.attribs['TargetMode'] === 'External' || !OFFICE_DOCUMENT.test(r.attribs['Type'] ?? '')) continue;
    const path = posix.normalize(target.replace(/^\/+/, ''));
    if (files.has(path)) return path;
  }
  return conventional;
}

/** The relationships part of `part` ("word/document2.xml" -> "word/_rels/document2.xml.rels"). */
export const relsPathOf = (part: string): string => posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
