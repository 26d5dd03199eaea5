import { useState } from 'react';
import { CloseIcon } from '../../components/icons';
import { ExpandIcon, MinimizeIcon } from '../../components/file-icons';
import { useAppSelector } from '../../state/hooks';
import { isUploadFinished, type UploadEntry } from '../../state/upload.slice';
import { UploadRow } from './UploadRow';
import { useUploader } from './useUploader';

/** "Uploading N file(s)" while any upload runs (N of them), else "Uploaded N file(s)" (N completed). */
export function uploadTitle(uploads: UploadEntry[]): string {
  const running = uploads.filter((u) => !isUploadFinished(u)).length;
  if (running > 0) return `Uploading ${running} file(s)`;
  return `Uploaded ${uploads.filter((u) => u.completed).length} file(s)`;
}

const headerButton = 'flex size-8 items-center justify-center rounded-full text-white/90 hover:bg-white/15';

/** The upload progress panel at the bottom right, shown whenever any upload exists. */
export function UploadPanel() {
  const uploads = useAppSelector((state) => state.upload.uploads);
  const [minimized, setMinimized] = useState(false);
  const { cancel, setPaused, cancelAllAndClear } = useUploader();
  if (uploads.length === 0) return null;

  const title = uploadTitle(uploads);
  return (
    <section
      aria-label="Uploads"
      className="fixed right-2 bottom-2 z-40 w-[min(360px,calc(100vw-1rem))] overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-black/10 sm:right-4 sm:bottom-4"
    >
      <header className="flex h-12 items-center gap-2 bg-[#1f2937] pr-2 pl-4 text-white">
        <h2 className="min-w-0 flex-1 truncate text-sm font-medium">{title}</h2>
        <button
          type="button"
          aria-label={minimized ? 'Expand uploads' : 'Minimize uploads'}
          aria-expanded={!minimized}
          className={headerButton}
          onClick={() => setMinimized((value) => !value)}
        >
          {minimized ? <ExpandIcon className="size-6" /> : <MinimizeIcon className="size-6" />}
        </button>
        <button type="button" aria-label="Close uploads" className={headerButton} onClick={cancelAllAndClear}>
          <CloseIcon className="size-5" />
        </button>
      </header>
      {!minimized && (
        <ul className="max-h-[300px] divide-y divide-gray-100 overflow-y-auto" data-testid="upload-list">
          {uploads.map((upload) => (
            <UploadRow key={upload.id} upload={upload} onCancel={cancel} onPause={setPaused} />
          ))}
        </ul>
      )}
    </section>
  );
}
