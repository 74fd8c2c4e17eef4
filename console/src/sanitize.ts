// Document text is data. `text_as_html` comes from a tenant's document: it is parsed inertly
// (DOMParser runs no script and loads nothing) and rebuilt from scratch with table markup only:
// table, caption, thead/tbody/tfoot, tr, th, td, col/colgroup and br, the only attributes colspan and
// rowspan (small integers). Everything else is dropped, its text kept.

const ALLOWED = new Set(['TABLE', 'CAPTION', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'TH', 'TD', 'COLGROUP', 'COL', 'BR']);
const SPANS = ['colspan', 'rowspan'];

function copyInto(target: Node, source: Node, depth: number): void {
  if (depth > 64) return;
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(document.createTextNode(child.textContent ?? ''));
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      if (el.tagName === 'SCRIPT' || el.tagName === 'STYLE' || el.tagName === 'TEMPLATE') continue;
      if (ALLOWED.has(el.tagName)) {
        const copy = document.createElement(el.tagName.toLowerCase());
        for (const name of SPANS) {
          const v = el.getAttribute(name);
          if (v && /^\d{1,3}$/.test(v) && Number(v) > 1) copy.setAttribute(name, v);
        }
        copyInto(copy, el, depth + 1);
        target.appendChild(copy);
      } else {
        copyInto(target, el, depth + 1);
      }
    }
  }
}

/** A fragment holding only table markup and text, built from untrusted HTML. */
export function sanitizedTable(html: string): DocumentFragment {
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const out = document.createDocumentFragment();
  copyInto(out, parsed.body, 0);
  return out;
}
