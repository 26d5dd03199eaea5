import { readPdf } from './pdf.js';

/**
 * The process that reads PDFs for one compute thread (see pdf-process.ts): it answers each PDF
 * its parent sends, one at a time, with the text and date or a failure, and ends with its parent.
 */
process.on('message', (bytes: Uint8Array) => {
  readPdf(bytes).then(
    (result) => process.send?.(result),
    () => process.send?.({ failed: true }),
  );
});
process.on('disconnect', () => process.exit(0));
