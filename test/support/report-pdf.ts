// A one-page report PDF written by hand: numbered section headings set larger and bold than the body,
// and a numbered list in the body's size.

const esc = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);

/** lines: [text, size, bold], top to bottom. */
export function reportPdf(lines: [string, number, boolean][]): Uint8Array {
  let y = 720;
  const ops: string[] = [];
  for (const [t, size, bold] of lines) {
    ops.push(`BT /${bold ? 'F2' : 'F1'} ${size} Tf 72 ${y} Td (${esc(t)}) Tj ET`);
    y -= size * 1.8;
  }
  const content = ops.join('\n');
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
