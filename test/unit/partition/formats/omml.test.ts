// Office Math (OMML) as LaTeX (formats/omml.ts): each structure Word's equation editor writes, as
// the LaTeX a reader or another converter writes for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstChild, parseXml } from '../../../../lambdas/engine/partition/formats/common';
import { ommlToLatex } from '../../../../lambdas/engine/partition/formats/omml';

const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
const r = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;
const e = (x: string) => `<m:e>${x}</m:e>`;
const latex = (inner: string): string => ommlToLatex(firstChild(parseXml(`<m:oMath ${M}>${inner}</m:oMath>`), 'm:oMath')!);

test('omml: fractions, scripts, radicals', () => {
  assert.equal(latex(`<m:f><m:num>${r('a+b')}</m:num><m:den>${r('2')}</m:den></m:f>`), '\\frac{a+b}{2}');
  assert.equal(latex(`<m:f><m:fPr><m:type m:val="lin"/></m:fPr><m:num>${r('a')}</m:num><m:den>${r('b')}</m:den></m:f>`), 'a/b');
  assert.equal(latex(`<m:sSubSup>${e(r('x'))}<m:sub>${r('i')}</m:sub><m:sup>${r('2')}</m:sup></m:sSubSup>`), 'x_{i}^{2}');
  assert.equal(latex(`<m:sSup>${e(`<m:d>${e(r('a+b'))}</m:d>`)}<m:sup>${r('n')}</m:sup></m:sSup>`), '{\\left(a+b\\right)}^{n}');
  assert.equal(latex(`<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/>${e(r('x'))}</m:rad>`), '\\sqrt{x}');
  assert.equal(latex(`<m:rad><m:deg>${r('3')}</m:deg>${e(r('y'))}</m:rad>`), '\\sqrt[3]{y}');
});

test('omml: n-ary operators with limits, delimiters, functions, accents, matrices; symbols as commands', () => {
  assert.equal(latex(`<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('i=1')}</m:sub><m:sup>${r('n')}</m:sup>${e(r('i'))}</m:nary>`), '\\sum_{i=1}^{n} i');
  assert.equal(latex(`<m:nary><m:sub>${r('0')}</m:sub><m:sup>${r('∞')}</m:sup>${e(r('f dx'))}</m:nary>`), '\\int_{0}^{\\infty} f dx');
  assert.equal(latex(`<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr>${e(r('a'))}${e(r('b'))}</m:d>`), '\\left[a|b\\right]');
  assert.equal(latex(`<m:func><m:fName>${r('sin')}</m:fName>${e(r('θ'))}</m:func>`), '\\sin{\\theta}');
  assert.equal(latex(`<m:limLow>${e(r('lim'))}<m:lim>${r('n→∞')}</m:lim></m:limLow>`), '\\lim_{n\\rightarrow\\infty}');
  assert.equal(latex(`<m:acc><m:accPr><m:chr m:val="\u0303"/></m:accPr>${e(r('x'))}</m:acc>`), '\\tilde{x}');
  assert.equal(latex(`<m:m><m:mr>${e(r('1'))}${e(r('0'))}</m:mr><m:mr>${e(r('0'))}${e(r('1'))}</m:mr></m:m>`), '\\begin{matrix}1&0\\\\0&1\\end{matrix}');
  assert.equal(latex(r('α≤β±γ')), '\\alpha\\leq\\beta\\pm\\gamma');
  assert.equal(latex(r('αx')), '\\alpha x');
});

test('omml: an equation paragraph of two equations, one per line; nesting past the limit is cut, not a crash', () => {
  const para = firstChild(parseXml(`<m:oMathPara ${M}><m:oMath>${r('a=1')}</m:oMath><m:oMath>${r('b=2')}</m:oMath></m:oMathPara>`), 'm:oMathPara')!;
  assert.equal(ommlToLatex(para), 'a=1\\\\b=2');
  const deep = '<m:f><m:num>'.repeat(300) + r('x') + '</m:num></m:f>'.repeat(300);
  assert.equal(typeof latex(deep), 'string');
});

test('omml: an overline accent (U+203E) is a bar, not the default hat; a big operator typed as a run character is its command', () => {
  assert.equal(latex(`<m:acc><m:accPr><m:chr m:val="\u203e"/></m:accPr>${e(r('x'))}</m:acc>`), '\\bar{x}');
  assert.equal(latex(`${r('∑')}<m:sSub>${e(r('x'))}<m:sub>${r('i')}</m:sub></m:sSub>`), '\\sum x_{i}');
});
