import type { SharedFileDto } from '@nimbus/common';
import { useState } from 'react';
import { sharedUrls } from '../../api/share-links.api';
import { DownloadIcon } from '../../components/file-icons';
import { FileIcon } from '../../components/drive-icons';
import { formatDay } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { SharedPreview } from './SharedPreview';

/** One shared file: its name, size and date, its picture when it has one, and Download unless view-only. */
export function SharedFileView({ token, file, allowDownload }: { token: string; file: SharedFileDto; allowDownload: boolean }) {
  const [previewing, setPreviewing] = useState(false);
  const previewable = file.isImage || file.isVideo;
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <button
        type="button"
        disabled={!previewable}
        onClick={() => setPreviewing(true)}
        aria-label={previewable ? `Open ${file.filename}` : undefined}
        className="flex h-48 w-full items-center justify-center overflow-hidden rounded-2xl bg-surface"
      >
        {file.hasThumbnail ? (
          <img src={sharedUrls.thumbnail(token, file.id)} alt="" className="size-full object-contain" />
        ) : (
          <FileIcon className="size-16 text-gray-400" />
        )}
      </button>
      <h1 className="max-w-full text-base font-medium break-words text-ink">{file.filename}</h1>
      <p className="text-sm text-muted">
        {formatBytes(file.size)} · {formatDay(file.uploadDate)}
      </p>
      {allowDownload ? (
        <a
          href={sharedUrls.download(token, file.id)}
          download
          className="inline-flex h-10 items-center gap-2 rounded-full bg-primary px-5 text-sm font-medium text-white hover:bg-primary-hover"
        >
          <DownloadIcon className="size-5" /> Download
        </a>
      ) : (
        <p className="text-sm text-muted">The owner allows viewing only.</p>
      )}
      {previewing && (
        <SharedPreview
          token={token}
          files={[file]}
          index={0}
          allowDownload={allowDownload}
          onMove={() => undefined}
          onClose={() => setPreviewing(false)}
        />
      )}
    </div>
  );
}
