/** A PDF written by hand: `objects` are the bodies of objects 1…n, object 1 the catalog. */
export function pdfOf(objects: string[]): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** One page of `width` × `height` points drawing `content` (PDF operators). */
export function onePagePdf(content: string, width = 200, height = 300, extraPage = ''): Buffer {
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R ${extraPage}>>`,
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ]);
}

/** A page with a black square in its lower left quarter and a line of text at the top. */
export const squarePdf = (): Buffer =>
  onePagePdf(
    'q 0 0 0 rg 20 20 80 80 re f Q BT /F1 18 Tf 20 260 Td (Nimbus page one) Tj ET',
    200,
    300,
    '/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> ',
  );
