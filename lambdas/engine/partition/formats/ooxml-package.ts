// An Office Open XML package's relationships (ECMA-376 Part 2): a part's relationships live beside
// it, in _rels/<name>.rels, each naming a target part relative to the part's folder (or absolute from
// the package root) or, in external mode, a URL. The package's own relationships (_rels/.rels) name
// its main part; the usual name (word/document.xml) is only a convention: Word for the web and
// SharePoint save "word/document2.xml". Every OOXML reader (docx, pptx, xlsx, charts) reads them here.
import { posix } from 'node:path';
import { childElements, firstChild, parseXml, zipText } from './common';

const OFFICE_DOCUMENT = /\/officeDocument$/;

export interface Relationship {
  id: string;
  /** the relationship type's URI (…/styles, …/header, …/slide …) */
  type: string;
  /** the target's package path; an external target (a hyperlink's URL) as written */
  target: string;
  external: boolean;
}

/** The relationships part of `part` ("word/document2.xml" -> "word/_rels/document2.xml.rels"; "" -> "_rels/.rels"). */
export const relsPathOf = (part: string): string => posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);

/** The relationships of a package part (`""`: the package's own), internal targets resolved to package paths. */
export function partRelationships(files: Map<string, Uint8Array>, part: string): Relationship[] {
  const xml = zipText(files, relsPathOf(part));
  const root = xml ? firstChild(parseXml(xml), 'Relationships') : undefined;
  const dir = posix.dirname(part);
  const out: Relationship[] = [];
  for (const r of root ? childElements(root, 'Relationship') : []) {
    const id = r.attribs['Id'], target = r.attribs['Target'];
    if (!id || target === undefined) continue;
    const external = r.attribs['TargetMode'] === 'External';
    const path = external ? target : target.startsWith('/') ? posix.normalize(target.replace(/^\/+/, '')) : posix.normalize(posix.join(dir, target));
    out.push({ id, type: r.attribs['Type'] ?? '', target: path, external });
  }
  return out;
}

/**
 * The package path of the main part: the officeDocument relationship's target when that part is in
 * the package, else `conventional`.
 */
export function mainPartPath(files: Map<string, Uint8Array>, conventional: string): string {
  const main = partRelationships(files, '').find((r) => !r.external && OFFICE_DOCUMENT.test(r.type) && files.has(r.target));
  return main?.target ?? conventional;
}
