// WordprocessingML styles (word/styles.xml) as the DOCX partitioner needs them: the name of a
// paragraph style, the heading level it gives through its basedOn chain (a heading style by name or
// id, Title/Subtitle, or a w:outlineLvl), whether it numbers its paragraphs, and the run formatting
// (bold, font size) that tells display text from body text.
import { alongStyleChain, attr, childElements, firstChild, parseXml, type DomElement } from './common';

interface StyleDef {
  id: string;
  name: string;
  basedOn?: string;
  outlineLvl?: number;
  /** w:numPr with a non-zero w:numId in the style's pPr (a "0" numId switches numbering off) */
  numbered?: boolean;
  /** w:ilvl of the style's w:numPr: the list level its paragraphs are numbered at */
  ilvl?: number;
  bold?: boolean;
  /** font size in half-points */
  size?: number;
}

/** Word's size when neither docDefaults nor Normal give one: 10 pt. */
const DEFAULT_SIZE = 20;

export function onOff(el: DomElement | undefined): boolean {
  if (!el) return false;
  const v = attr(el, 'val');
  return v === undefined || !['0', 'false', 'off', 'none'].includes(v.toLowerCase());
}

export function rPrSize(rPr: DomElement | undefined): number | undefined {
  const sz = rPr ? firstChild(rPr, 'sz') : undefined;
  const v = sz ? Number(attr(sz, 'val')) : NaN;
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

/** Heading level 0-8 from w:outlineLvl (9 is body text). */
export function outlineLevel(pPr: DomElement | undefined): number | undefined {
  const el = pPr ? firstChild(pPr, 'outlineLvl') : undefined;
  const v = el ? Number(attr(el, 'val')) : NaN;
  return Number.isInteger(v) && v >= 0 && v <= 9 ? v : undefined;
}

export class DocxStyles {
  private readonly defs = new Map<string, StyleDef>();
  private defaultParagraph?: string;
  /** body font size in half-points: the default paragraph style's, else docDefaults', else 10 pt */
  readonly bodySize: number;

  constructor(xml: string | undefined) {
    let docDefaultSize: number | undefined;
    if (xml) {
      const root = firstChild(parseXml(xml), 'styles');
      if (root) {
        const dd = firstChild(root, 'docDefaults');
        const rd = dd ? firstChild(dd, 'rPrDefault') : undefined;
        docDefaultSize = rPrSize(rd ? firstChild(rd, 'rPr') : undefined);
        for (const s of childElements(root, 'style')) this.addStyle(s);
      }
    }
    const normal = this.defaultParagraph ? this.chainValue(this.defaultParagraph, (d) => d.size) : undefined;
    this.bodySize = normal ?? docDefaultSize ?? DEFAULT_SIZE;
  }

  private addStyle(s: DomElement): void {
    const id = attr(s, 'styleId');
    if (!id) return;
    const nameEl = firstChild(s, 'name');
    const basedEl = firstChild(s, 'basedOn');
    const pPr = firstChild(s, 'pPr');
    const rPr = firstChild(s, 'rPr');
    const numPr = pPr ? firstChild(pPr, 'numPr') : undefined;
    const numId = numPr ? firstChild(numPr, 'numId') : undefined;
    const ilvl = numPr ? Number(attr(firstChild(numPr, 'ilvl') ?? numPr, 'val')) : NaN;
    const b = rPr ? firstChild(rPr, 'b') : undefined;
    this.defs.set(id, {
      id,
      name: (nameEl ? attr(nameEl, 'val') ?? id : id).toLowerCase(),
      basedOn: basedEl ? attr(basedEl, 'val') : undefined,
      outlineLvl: outlineLevel(pPr),
      numbered: numId ? attr(numId, 'val') !== '0' : undefined,
      ilvl: Number.isInteger(ilvl) && ilvl >= 0 && ilvl <= 8 ? ilvl : undefined,
      bold: b ? onOff(b) : undefined,
      size: rPrSize(rPr),
    });
    if (attr(s, 'type') === 'paragraph' && ['1', 'true', 'on'].includes((attr(s, 'default') ?? '').toLowerCase())) {
      this.defaultParagraph ??= id;
    }
  }

  /** The style's own name (lowercase), or the id when the styles part does not define it. */
  name(id: string): string {
    return this.defs.get(id)?.name ?? id.toLowerCase();
  }

  /** The first value `pick` finds walking the basedOn chain from `id` (the style itself first). */
  private chainValue<T>(id: string, pick: (d: StyleDef) => T | undefined): T | undefined {
    return alongStyleChain(id, (k) => this.defs.get(k), (d) => d.basedOn, pick);
  }

  /**
   * The heading depth (0 = top) a paragraph style gives, through its basedOn chain: "heading N" or an
   * id/name ending in heading N, "Title"/"TOC Heading" (0), "Subtitle" (1), or w:outlineLvl 0-8;
   * undefined for body styles (outline level 9 ends the search).
   */
  headingDepth(id: string | undefined): number | undefined {
    if (!id) return undefined;
    const depth = this.chainValue(id, (d) => styleHeadingDepth(d));
    return depth === undefined || depth < 0 ? undefined : depth;
  }

  /** True when the style (through basedOn) numbers its paragraphs. */
  numbered(id: string | undefined): boolean {
    return id ? this.chainValue(id, (d) => d.numbered) ?? false : false;
  }

  /**
   * The list level of a paragraph the style numbers or marks as a list item when the paragraph gives
   * none: the style's w:ilvl (through basedOn), else the number ending a list style's name ("List
   * Bullet 2" is level 1, as the library reads it), else 0.
   */
  listLevel(id: string | undefined): number {
    if (!id) return 0;
    const ilvl = this.chainValue(id, (d) => d.ilvl);
    if (ilvl !== undefined) return ilvl;
    const n = /^list\b.*\s(\d)$/.exec(this.name(id));
    return n ? Math.max(0, Number(n[1]) - 1) : 0;
  }

  /** Run bold from a paragraph or character style chain. */
  bold(id: string | undefined): boolean | undefined {
    return id ? this.chainValue(id, (d) => d.bold) : undefined;
  }

  /** Font size (half-points) from a paragraph or character style chain. */
  size(id: string | undefined): number | undefined {
    return id ? this.chainValue(id, (d) => d.size) : undefined;
  }
}

/** -1 marks an explicit body level (outlineLvl 9), which stops the basedOn search. */
function styleHeadingDepth(d: StyleDef): number | undefined {
  for (const label of [d.name, d.id.toLowerCase()]) {
    if (label === 'title' || label === 'toc heading' || label === 'tocheading') return 0;
    if (label === 'subtitle') return 1;
    if (label === 'heading') return 0;
    const m = /heading\s*(\d)$/.exec(label);
    if (m) return Math.max(0, Number(m[1]) - 1);
  }
  if (d.outlineLvl !== undefined) return d.outlineLvl === 9 ? -1 : d.outlineLvl;
  return undefined;
}
