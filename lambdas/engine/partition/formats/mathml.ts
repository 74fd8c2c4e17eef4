// MathML (HTML's <math>, an OpenDocument formula object's content.xml) written as LaTeX, as omml.ts
// writes Office Math: a TeX annotation the writer kept is taken as it is; otherwise each presentation
// element maps to its LaTeX construct (scripts, fractions, radicals, operators with limits, accents,
// fences, tables) and characters with a LaTeX command are written as it.
import { childElements, firstChild, isTag, localName, parseXml, textContent, type DomElement, type DomNode } from './common';
import { ACCENTS, base, FUNCTIONS, group, joined, MAX_DEPTH, NARY, SYMBOLS, withoutDisplayStyle } from './math-latex';


/** A token's characters as LaTeX. */
function token(text: string): string {
  const t = text.trim();
  if (NARY[t]) return NARY[t]!;
  if (FUNCTIONS.has(t)) return `\\${t}`;
  return joined([...t].map((ch) => SYMBOLS[ch] ?? ch));
}

/** The TeX a writer annotated the formula with (Wikipedia's, LibreOffice's StarMath aside), without \displaystyle. */
function texAnnotation(sem: DomElement): string | undefined {
  const a = childElements(sem).find((c) => localName(c) === 'annotation' && /tex/i.test(c.attribs['encoding'] ?? ''));
  if (!a) return undefined;
  return withoutDisplayStyle(textContent(a).trim()) || undefined;
}

function node(n: DomNode, depth: number): string {
  if (!isTag(n) || depth > MAX_DEPTH) return '';
  const el = n;
  const kids = childElements(el);
  const at = (k: number): string => (kids[k] ? node(kids[k]!, depth + 1).trim() : '');
  switch (localName(el).toLowerCase()) {
    case 'mi': case 'mn': case 'mo':
      return token(textContent(el));
    case 'mtext': case 'ms': {
      const t = textContent(el).trim();
      return t ? `\\text{${t}}` : ' ';
    }
    case 'mspace':
      return ' ';
    case 'msup':
      return `${base(at(0))}^${group(at(1))}`;
    case 'msub':
      return `${base(at(0))}_${group(at(1))}`;
    case 'msubsup':
      return `${base(at(0))}_${group(at(1))}^${group(at(2))}`;
    case 'mfrac':
      return `\\frac{${at(0)}}{${at(1)}}`;
    case 'msqrt':
      return `\\sqrt{${children(el, depth)}}`;
    case 'mroot':
      return `\\sqrt[${at(1)}]{${at(0)}}`;
    case 'munder': case 'mover': case 'munderover': {
      const b = at(0);
      const name = localName(el).toLowerCase();
      const under = name === 'mover' ? '' : at(1);
      const over = name === 'munder' ? '' : at(name === 'mover' ? 1 : 2);
      const overChar = name === 'mover' && kids[1] ? textContent(kids[1]).trim() : '';
      if (name === 'mover' && ACCENTS[overChar]) return `${ACCENTS[overChar]}{${b}}`;
      if (name === 'munder' && kids[1] && /^[_\u0332\u00af]$/.test(textContent(kids[1]).trim())) return `\\underline{${b}}`;
      const op = /^\\[a-zA-Z]+$/.test(b);
      if (!op) return `${over ? `\\overset{${over}}` : ''}${under ? `\\underset{${under}}` : ''}{${b}}`;
      return `${b}${under ? `_${group(under)}` : ''}${over ? `^${group(over)}` : ''}`;
    }
    case 'mfenced': {
      const open = el.attribs['open'] ?? '(', close = el.attribs['close'] ?? ')';
      const sep = el.attribs['separators'] ?? ',';
      return `\\left${open === '{' ? '\\{' : open || '.'}${kids.map((k) => node(k, depth + 1).trim()).join(sep.trim().charAt(0) || ',')}\\right${close === '}' ? '\\}' : close || '.'}`;
    }
    case 'mtable': {
      const rows = kids.filter((r) => /^m(labeled)?tr$/i.test(localName(r)))
        .map((r) => childElements(r).filter((c) => localName(c).toLowerCase() === 'mtd').map((c) => children(c, depth + 1).trim()).join('&'));
      return `\\begin{matrix}${rows.join('\\\\')}\\end{matrix}`;
    }
    case 'semantics':
      return texAnnotation(el) ?? at(0);
    case 'annotation': case 'annotation-xml': case 'mphantom': case 'none': case 'mprescripts':
      return '';
    // math, mrow, mstyle, mpadded, menclose, merror ...: read through
    default:
      return children(el, depth);
  }
}

function children(el: DomElement, depth: number): string {
  return joined(el.children.map((c) => node(c, depth + 1)));
}

/** A <math> element (or a formula object's root) as LaTeX. */
export function mathmlToLatex(math: DomElement): string {
  return node(math, 0).trim().replace(/\s{2,}/g, ' ');
}

/** Whether a <math> element is set as a display formula (a block of its own). */
export const isDisplayMath = (math: DomElement): boolean => math.attribs['display'] === 'block' || math.attribs['mode'] === 'display';

/** An OpenDocument formula object's content.xml (MathML at its root) as LaTeX and how it is set; undefined for other objects. */
export function odfFormula(xml: string): { latex: string; display: boolean } | undefined {
  if (!/<(?:math:)?math[\s>]/.test(xml)) return undefined;
  const doc = parseXml(xml);
  const math = firstChild(doc, 'math') ?? firstChild(doc, 'math:math');
  const latex = math ? mathmlToLatex(math) : '';
  return math && latex ? { latex, display: isDisplayMath(math) } : undefined;
}
