// Element boxes over a drawn page (an image, or a PDF page on a canvas): an SVG in the element
// coordinates' own space (layout_width × layout_height; PointSpace flipped: its y runs up), stretched
// over the page; colour by type.
import type { Element } from './elements';
import { html } from './ui';

const COLOURS: Record<string, string> = { Title: '#c2410c', NarrativeText: '#1d4ed8', ListItem: '#047857', Table: '#7c3aed', Image: '#be185d', Header: '#525252', Footer: '#525252' };

interface Coordinates {
  points?: number[][];
  system?: string;
  layout_width?: number;
  layout_height?: number;
}

export function BoxLayer({ elements, selected, onSelect }: { elements: Element[]; selected?: string; onSelect: (id: string) => void }) {
  const boxed = elements.filter((e) => (e.metadata.coordinates as Coordinates | undefined)?.points?.length);
  const first = boxed[0]?.metadata.coordinates as Coordinates | undefined;
  if (!first?.layout_width || !first.layout_height) return null;
  return html`<svg viewBox=${`0 0 ${first.layout_width} ${first.layout_height}`} preserveAspectRatio="none" aria-label="element boxes">
    ${boxed.map((e) => {
      const c = e.metadata.coordinates as Coordinates;
      const xs = c.points!.map((p) => p[0]!);
      // -- PointSpace (the fast strategy's PDF points, as the library gives them) counts y up from the bottom --
      const ys = c.points!.map((p) => (c.system === 'PointSpace' ? (c.layout_height ?? first.layout_height!) - p[1]! : p[1]!));
      const [x, y] = [Math.min(...xs), Math.min(...ys)];
      return html`<rect key=${e.element_id} data-type=${e.type} x=${x} y=${y} width=${Math.max(...xs) - x} height=${Math.max(...ys) - y}
        class=${e.element_id === selected ? 'box selected' : 'box'} stroke=${COLOURS[e.type] ?? '#0f766e'} onClick=${() => onSelect(e.element_id)}><title>${e.type}</title></rect>`;
    })}
  </svg>`;
}
