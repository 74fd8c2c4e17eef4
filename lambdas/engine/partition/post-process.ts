// The pipeline's last step, on the elements of a whole document: filename/filetype, languages, page
// offset, page breaks, hierarchy (title depths from text sizes, parent_id) and final ids. Its own module (light: no format readers), so a job can merge the
// raw elements of a document's page ranges and post-process them once, exactly as one pass would
// (domain/job-pages.ts), outside the partition sandbox.
import { assignElementIds, makeElement, type Element } from '../elements';
import { rankTitleDepths, setElementHierarchy } from './hierarchy';
import { applyLanguages, iso639_3 } from './languages';
import { FILETYPE_MIME, type FileType, type PartitionOptions } from './types';

/** Metadata, languages, page numbers, page breaks, hierarchy and ids, in that order. */
export function postProcess(elements: Element[], filename: string, filetype: FileType, opts: PartitionOptions): Element[] {
  const mime = FILETYPE_MIME[filetype];
  const baseName = filename.split(/[\\/]/).pop() || filename;
  applyLanguages(elements, opts.languages.filter((l) => l && l !== 'auto').map(iso639_3), opts.detectLanguagePerElement);
  const offset = (opts.startingPageNumber ?? 1) - 1;
  for (const el of elements) {
    const md = el.metadata;
    md.filename ??= baseName;
    md.filetype ??= mime;
    if (typeof md.page_number === 'number' && offset) md.page_number += offset;
    if (md.page_number === undefined && offset) md.page_number = offset + 1;
  }
  let out = elements;
  if (opts.includePageBreaks) out = withPageBreaks(elements, baseName, mime);
  // after the page breaks: a PageBreak ends a section, as in the library (which adds them earlier)
  setElementHierarchy(rankTitleDepths(out));
  return assignElementIds(out, opts.uniqueElementIds);
}

function withPageBreaks(elements: Element[], filename: string, filetype: string): Element[] {
  const out: Element[] = [];
  let prev: number | undefined;
  for (const el of elements) {
    const p = el.metadata.page_number;
    if (prev !== undefined && p !== undefined && p !== prev && el.type !== 'PageBreak') {
      out.push(makeElement('PageBreak', '', { filename, filetype, page_number: prev }));
    }
    if (p !== undefined) prev = p;
    out.push(el);
  }
  return out;
}
