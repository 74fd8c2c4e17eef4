// Facts shared by the readers that write formulas as LaTeX (omml.ts for Office Math, mathml.ts for
// MathML): the commands of characters, operators, accents, delimiters and functions, how pieces join,
// and how a formula stands in a paragraph's text (between $) or as a Formula of its own.

/** Nesting read at most (a formula nests a few levels; a hostile file could nest thousands). */
export const MAX_DEPTH = 64;

export const SYMBOLS: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\epsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi', π: '\\pi',
  ρ: '\\rho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon', φ: '\\phi', ϕ: '\\phi', χ: '\\chi',
  ψ: '\\psi', ω: '\\omega', Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi', Π: '\\Pi',
  Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∼': '\\sim', '≅': '\\cong',
  '∝': '\\propto', '±': '\\pm', '∓': '\\mp', '×': '\\times', '÷': '\\div', '·': '\\cdot', '⋅': '\\cdot',
  '∘': '\\circ', '∗': '\\ast', '∞': '\\infty', '∂': '\\partial', '∇': '\\nabla', '∈': '\\in', '∉': '\\notin',
  '⊂': '\\subset', '⊆': '\\subseteq', '⊃': '\\supset', '⊇': '\\supseteq', '∪': '\\cup', '∩': '\\cap',
  '∅': '\\emptyset', '∀': '\\forall', '∃': '\\exists', '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee',
  '→': '\\rightarrow', '←': '\\leftarrow', '↔': '\\leftrightarrow', '⇒': '\\Rightarrow', '⇐': '\\Leftarrow',
  '⇔': '\\Leftrightarrow', '↦': '\\mapsto', '…': '\\ldots', '⋯': '\\cdots', '⋮': '\\vdots', '⋱': '\\ddots',
  '′': "'", '″': "''", '∠': '\\angle', '⊥': '\\perp', '∥': '\\parallel', 'ℏ': '\\hbar', 'ℓ': '\\ell',
  '−': '-', '∣': '|',
};

/** n-ary operators by their character (an m:nary without m:chr is an integral). */
export const NARY: Record<string, string> = {
  '∑': '\\sum', '∏': '\\prod', '∐': '\\coprod', '∫': '\\int', '∬': '\\iint', '∭': '\\iiint', '∮': '\\oint',
  '⋃': '\\bigcup', '⋂': '\\bigcap', '⋁': '\\bigvee', '⋀': '\\bigwedge', '⨁': '\\bigoplus', '⨂': '\\bigotimes',
};

/** Accents (m:acc's m:chr; a circumflex by default). */
export const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat', '^': '\\hat', '\u0303': '\\tilde', '~': '\\tilde', '\u0304': '\\bar', '\u0305': '\\overline',
  '\u0307': '\\dot', '\u0308': '\\ddot', '\u20d7': '\\vec', '\u2192': '\\vec', '\u030c': '\\check', '\u0301': '\\acute',
  '\u0300': '\\grave', '\u0306': '\\breve', '\u00af': '\\bar', '\u02d9': '\\dot', '\u00a8': '\\ddot', '\u02c7': '\\check',
  '\u02dc': '\\tilde', '\u02c6': '\\hat', '\u203e': '\\bar',
};

/** Delimiters written after \left and \right. */
export const DELIMITERS: Record<string, string> = { '{': '\\{', '}': '\\}', '': '.', '⟨': '\\langle', '⟩': '\\rangle', '‖': '\\|', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil' };

/** Function names LaTeX has a command for. */
export const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'sinh', 'cosh', 'tanh', 'arcsin', 'arccos', 'arctan', 'log', 'ln', 'exp', 'lim', 'max', 'min', 'sup', 'inf', 'det', 'dim', 'ker', 'gcd', 'deg', 'arg']);

/** Pieces of LaTeX in a row: a command before a letter gets the space that ends it ("\\pi r", "\\alpha\\leq"). */
export function joined(parts: string[]): string {
  let out = '';
  for (const p of parts) out += /^[a-zA-Z]/.test(p) && /\\[a-zA-Z]+$/.test(out) ? ` ${p}` : p;
  return out;
}

/** A group of LaTeX: a script's or an argument's braces. */
export const group = (s: string): string => `{${s}}`;
/** A script's base: braced unless one character or one command ("c^{2}", "\\alpha_{i}", "{(a+b)}^{2}"). */
export const base = (s: string): string => ([...s].length === 1 || /^\\[a-zA-Z]+$/.test(s) ? s : group(s));

/** TeX as a writer annotates a formula, without the {\\displaystyle ...} around it. */
export const withoutDisplayStyle = (tex: string): string => tex.replace(/^\{\\displaystyle\s*([\s\S]*)\}$/, '$1').trim();

/** A paragraph's text where math is set off by $ ("$a$ and $b$"), as inline LaTeX. */
export const inlineMath = (latex: string): string => (latex ? `$${latex}$` : '');

/** Whether a paragraph is only math: its math (with the $ around it) is all its visible text. */
export const onlyMath = (text: string, mathChars: number): boolean => mathChars > 0 && mathChars >= text.replace(/\s/g, '').length;

/** The text of a paragraph that is only math, as a Formula's: its pieces without their $. */
export const formulaText = (text: string): string => text.replace(/\$(\s*)\$/g, '$1').replace(/^\$|\$$/g, '');
