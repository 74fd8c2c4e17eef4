// The file around a hand-written PDF's objects: header, numbered objects, cross-reference table and
// trailer (object 1 is the catalog). Test PDFs are built from their objects with it; onePagePdf
// writes the usual skeleton of one page around a content stream and its fonts.

/** A PDF file of `objects` (each an object's body, numbered from 1 in order), as latin-1 bytes. */
export function writePdf(objects: string[]): Uint8Array {
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}

/**
 * A one-page PDF (US Letter): its `fonts` are the page's /F1, /F2... (objects 4 on), `content` its
 * content stream (the object after them), and `extra` objects come last, numbered on from there (the
 * parts a font refers to).
 */
export function onePagePdf(content: string, fonts: string[], extra: string[] = []): Uint8Array {
  const fontRefs = fonts.map((_, i) => `/F${i + 1} ${4 + i} 0 R`).join(' ');
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${fontRefs} >> >> /Contents ${4 + fonts.length} 0 R >>`,
    ...fonts,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...extra,
  ]);
}
