// Word's complex fields in a paragraph: w:fldChar "begin", the instruction (w:instrText), "separate",
// the result Word shows, "end". Fields nest: an IF or "=" field's instruction can hold whole fields
// ({ IF { MERGEFIELD Title } = "Dr" ... }), whose results are part of the instruction, not shown. A
// run's text is shown only when every open field is past its separator. Fields are followed within
// one paragraph: a field whose result spans paragraphs (a table of contents) shows them all, and a
// field left open by a damaged paragraph hides nothing after it.
import { attr, childElements, firstChild, localName, type DomElement } from './common';
import { onOff } from './docx-styles';

export class FieldNesting {
  /** per open field, innermost last: true once its separator was passed */
  private readonly open: boolean[] = [];

  /** Takes a w:fldChar; returns what it shows itself (a legacy form check box: ☒ or ☐), if anything. */
  mark(fldChar: DomElement): string | undefined {
    const type = attr(fldChar, 'fldCharType');
    if (type === 'begin') {
      const box = this.inInstruction ? undefined : checkBoxMark(fldChar);
      this.open.push(false);
      return box;
    }
    if (type === 'separate' && this.open.length) this.open[this.open.length - 1] = true;
    else if (type === 'end') this.open.pop();
    return undefined;
  }

  /** True while text belongs to some open field's instruction (Word does not show it). */
  get inInstruction(): boolean {
    return this.open.includes(false);
  }
}

/** A FORMCHECKBOX field's box as Word draws it: checked (w:checked, else w:default) or not. */
function checkBoxMark(fldChar: DomElement): string | undefined {
  const ffData = firstChild(fldChar, 'ffData');
  const box = ffData ? firstChild(ffData, 'checkBox') : undefined;
  if (!box) return undefined;
  const state = childElements(box).find((c) => localName(c) === 'checked') ?? firstChild(box, 'default');
  const checked = state ? (localName(state) === 'checked' ? onOff(state) : attr(state, 'val') === '1') : false;
  return checked ? '☒' : '☐';
}
