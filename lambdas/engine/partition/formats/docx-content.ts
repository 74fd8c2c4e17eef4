// Word's wrappers of content: a structured document tag (w:sdt, a content control: a form's field, a
// repeating section, a cover page's title) and a custom XML element (w:customXml) hold paragraphs,
// tables, table rows or cells as if these stood in the wrapper's parent, and so does the branch read
// of a markup-compatibility choice (mc:AlternateContent) among them. Readers take a part's blocks, a
// table's rows and a row's cells through `wordChildren`, so wrapped content is never lost.
import { childElements, firstChild, localName, type DomElement } from './common';
import { alternateBranch } from './docx-boxes';

/**
 * The child elements of `el` (those named `name`, when given) with each content control's content
 * and each custom XML element's children in its place, unwrapped at any depth (the XML parser bounds
 * the depth of a part).
 */
export function wordChildren(el: DomElement, name?: string): DomElement[] {
  const out: DomElement[] = [];
  const walk = (e: DomElement): void => {
    for (const c of childElements(e)) {
      const n = localName(c);
      if (n === 'sdt') {
        const content = firstChild(c, 'sdtContent');
        if (content) walk(content);
      } else if (n === 'customXml') walk(c);
      else if (n === 'AlternateContent') {
        // one branch: the same content is written for each
        const branch = alternateBranch(c, () => true);
        if (branch) walk(branch);
      }
      else if (!name || n === name) out.push(c);
    }
  };
  walk(el);
  return out;
}
