import type { FileDto } from '@nimbus/common';
import { AudioPreview } from './AudioPreview';
import type { DocumentKind } from './document-kind';
import { PdfPreview } from './PdfPreview';
import { TextPreview } from './TextPreview';

/** The preview of a file that is not a picture or a video: a PDF page by page, text as it reads, audio playing. */
export function DocumentPreview({ file, kind }: { file: FileDto; kind: DocumentKind }) {
  if (kind === 'pdf') return <PdfPreview file={file} />;
  if (kind === 'audio') return <AudioPreview file={file} />;
  return <TextPreview file={file} kind={kind} />;
}
