import type { FileDto } from '@nimbus/common';
import { useQuery } from '@tanstack/react-query';
import { readFileHead } from '../../api/file-content.api';
import { Spinner } from '../../components/Spinner';
import { codeLanguage } from './document-kind';
import { PreviewError } from './PreviewError';
import { TEXT_PREVIEW_BYTES, TextDocument, type TextKind } from './TextDocument';

/** A text file's first megabyte, fetched with a Range request and shown as its kind reads. */
export function TextPreview({ file, kind }: { file: FileDto; kind: TextKind }) {
  const head = useQuery({
    // A new content of the file (a version restored, a new upload) has another size or date.
    queryKey: ['file-content', file._id, file.length, file.uploadDate, 'head'],
    queryFn: ({ signal }) => readFileHead(file._id, TEXT_PREVIEW_BYTES, signal),
    staleTime: 60_000,
    retry: false,
  });
  if (head.isError) return <PreviewError message="Error loading file" />;
  if (!head.data) return <Spinner className="size-10" label="Loading file" />;
  // A multi-byte character cut by the limit decodes to a replacement character at the end.
  const text = new TextDecoder('utf-8').decode(head.data.bytes);
  return <TextDocument text={text} kind={kind} language={codeLanguage(file.filename)} truncated={head.data.truncated} />;
}
