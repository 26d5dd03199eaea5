import type { LinkType } from '@nimbus/common';
import type { ReactNode } from 'react';
import { FileFacts } from './FileFacts';
import { FilenameBox } from './FilenameBox';

interface FileDetailsBodyProps {
  filename: string;
  linkType: LinkType | undefined;
  size: number;
  uploadDate: string;
  children?: ReactNode;
}

/** The filename with "Copy name", then "File details" and what follows it (the download button). */
export function FileDetailsBody({ filename, linkType, size, uploadDate, children }: FileDetailsBodyProps) {
  return (
    <div className="flex flex-col">
      <FilenameBox filename={filename} />
      <h2 className="mt-6 mb-2 text-sm font-medium text-ink">File details</h2>
      <FileFacts linkType={linkType} size={size} uploadDate={uploadDate} />
      {children && <div className="mt-6 flex flex-col">{children}</div>}
    </div>
  );
}
