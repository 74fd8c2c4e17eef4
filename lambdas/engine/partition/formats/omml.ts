// Office Math (OMML: m:oMath in Word and PowerPoint XML) written as LaTeX, the text form of a formula
// that retrieval users and the other converters read ("E=mc^{2}", "\frac{a+b}{2}"). Each OMML
// structure maps to its LaTeX construct: fractions, scripts, radicals, n-ary operators with their
// limits, delimiters, functions, accents, bars, boxes, limits, matrices and equation arrays; runs'
// characters that have a LaTeX command (Greek letters, relations, operators, arrows) are written as it.
import { attr, childElements, firstChild, isTag, localName, type DomElement, type DomNode } from './common';
import { ACCENTS, base, DELIMITERS, FUNCTIONS, group, joined, MAX_DEPTH, NARY, SYMBOLS } from './math-latex';

/** A property's m:val (m:chr, m:begChr, m:type ...) under an element's m:xxxPr. */
function prop(el: DomElement, pr: string, name: string): string | undefined {
  const p = firstChild(el, pr);
  const v = p ? firstChild(p, name) : undefined;
  return v ? attr(v, 'val') : undefined;
}

const on = (v: string | undefined): boolean => v !== undefined && v !== '0' && v !== 'off' && v !== 'false';

/** A run's text with its characters as LaTeX. */
function runText(r: DomElement): string {
  let s = '';
  for (const t of childElements(r)) {
    if (localName(t) !== 't') continue;
    for (const c of t.children) if (c.type === 'text') s += c.data;
  }
  // a big operator typed as a character (no limits, so no m:nary) is its command too
  return joined([...s].map((ch) => SYMBOLS[ch] ?? NARY[ch] ?? ch));
}

/** The LaTeX of an OMML element's children, in order. */
function children(el: DomElement, depth: number): string {
  return joined(el.children.map((c) => node(c, depth + 1)));
}

/** The LaTeX of the named child argument (m:e, m:num, m:sub ...), empty when missing. */
function arg(el: DomElement, name: string, depth: number): string {
  const c = firstChild(el, name);
  return c ? children(c, depth).trim() : '';
}


function node(n: DomNode, depth: number): string {
  if (!isTag(n) || depth > MAX_DEPTH) return '';
  const el = n;
  switch (localName(el)) {
    case 'r':
      return runText(el);
    case 'f': {
      const num = arg(el, 'num', depth), den = arg(el, 'den', depth);
      const type = prop(el, 'fPr', 'type');
      if (type === 'lin' || type === 'skw') return `${num}/${den}`;
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      return `\\frac{${num}}{${den}}`;
    }
    case 'sSup':
      return `${base(arg(el, 'e', depth))}^${group(arg(el, 'sup', depth))}`;
    case 'sSub':
      return `${base(arg(el, 'e', depth))}_${group(arg(el, 'sub', depth))}`;
    case 'sSubSup':
      return `${base(arg(el, 'e', depth))}_${group(arg(el, 'sub', depth))}^${group(arg(el, 'sup', depth))}`;
    case 'sPre':
      return `{}_${group(arg(el, 'sub', depth))}^${group(arg(el, 'sup', depth))}${group(arg(el, 'e', depth))}`;
    case 'rad': {
      const deg = on(prop(el, 'radPr', 'degHide')) ? '' : arg(el, 'deg', depth);
      return deg ? `\\sqrt[${deg}]{${arg(el, 'e', depth)}}` : `\\sqrt{${arg(el, 'e', depth)}}`;
    }
    case 'nary': {
      const chr = prop(el, 'naryPr', 'chr') ?? '∫';
      const op = NARY[chr] ?? SYMBOLS[chr] ?? chr;
      const sub = on(prop(el, 'naryPr', 'subHide')) ? '' : arg(el, 'sub', depth);
      const sup = on(prop(el, 'naryPr', 'supHide')) ? '' : arg(el, 'sup', depth);
      return `${op}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${arg(el, 'e', depth)}`;
    }
    case 'd': {
      const beg = prop(el, 'dPr', 'begChr') ?? '(';
      const end = prop(el, 'dPr', 'endChr') ?? ')';
      const sep = prop(el, 'dPr', 'sepChr') ?? '|';
      const parts = childElements(el).filter((c) => localName(c) === 'e').map((c) => children(c, depth).trim());
      return `\\left${DELIMITERS[beg] ?? beg}${parts.join(sep)}\\right${DELIMITERS[end] ?? end}`;
    }
    case 'func': {
      const name = arg(el, 'fName', depth);
      return `${FUNCTIONS.has(name) ? `\\${name}` : name}${group(arg(el, 'e', depth))}`;
    }
    case 'limLow': {
      const name = arg(el, 'e', depth);
      return `${FUNCTIONS.has(name) ? `\\${name}` : name}_${group(arg(el, 'lim', depth))}`;
    }
    case 'limUpp':
      return `${base(arg(el, 'e', depth))}^${group(arg(el, 'lim', depth))}`;
    case 'acc': {
      const chr = prop(el, 'accPr', 'chr') ?? '\u0302';
      return `${ACCENTS[chr] ?? '\\hat'}{${arg(el, 'e', depth)}}`;
    }
    case 'bar':
      return `${prop(el, 'barPr', 'pos') === 'bot' ? '\\underline' : '\\overline'}{${arg(el, 'e', depth)}}`;
    case 'groupChr': {
      const below = (prop(el, 'groupChrPr', 'pos') ?? 'bot') === 'bot';
      return `${below ? '\\underbrace' : '\\overbrace'}{${arg(el, 'e', depth)}}`;
    }
    case 'm': {
      const rows = childElements(el).filter((c) => localName(c) === 'mr');
      const cells = rows.map((r) => childElements(r).filter((c) => localName(c) === 'e').map((c) => children(c, depth).trim()).join('&'));
      return `\\begin{matrix}${cells.join('\\\\')}\\end{matrix}`;
    }
    case 'eqArr': {
      const rows = childElements(el).filter((c) => localName(c) === 'e').map((c) => children(c, depth).trim());
      return `\\begin{array}{c}${rows.join('\\\\')}\\end{array}`;
    }
    // properties, and control characters that carry no text
    case 'rPr': case 'ctrlPr': case 'fPr': case 'sSupPr': case 'sSubPr': case 'sSubSupPr': case 'sPrePr':
    case 'radPr': case 'naryPr': case 'dPr': case 'funcPr': case 'limLowPr': case 'limUppPr': case 'accPr':
    case 'barPr': case 'groupChrPr': case 'mPr': case 'eqArrPr': case 'boxPr': case 'borderBoxPr': case 'oMathParaPr':
    case 'phantPr': case 'argPr':
      return '';
    case 'phant':
      return on(prop(el, 'phantPr', 'show')) || prop(el, 'phantPr', 'show') === undefined ? arg(el, 'e', depth) : '';
    // containers: m:e, m:box, m:borderBox, w:ins, w:smartTag ... read through
    default:
      return children(el, depth);
  }
}

/** An m:oMath (or m:oMathPara: its equations one per line) as LaTeX. */
export function ommlToLatex(math: DomElement): string {
  if (localName(math) === 'oMathPara') {
    return childElements(math).filter((c) => localName(c) === 'oMath').map((m) => children(m, 0).trim()).join('\\\\');
  }
  return children(math, 0).trim();
}

