import { ErrorIcon, PauseIcon, PlayIcon } from '../../components/icons';
import { CancelCircleIcon, DoneCircleIcon } from '../../components/file-icons';
import type { UploadEntry } from '../../state/upload.slice';

function ProgressBar({ upload }: { upload: UploadEntry }) {
  if (upload.type === 'folder') {
    return (
      <div role="progressbar" aria-label={`Uploading ${upload.name}`} className="h-1 overflow-hidden rounded-full bg-primary/20">
        <div className="h-full w-2/5 animate-[nimbus-progress_1s_ease-in-out_infinite] bg-primary" />
      </div>
    );
  }
  return (
    <div
      role="progressbar"
      aria-label={`Uploading ${upload.name}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={upload.progress}
      className="h-1 overflow-hidden rounded-full bg-primary/20"
    >
      <div className="h-full bg-primary transition-[width] duration-200" style={{ width: `${upload.progress}%` }} />
    </div>
  );
}

interface UploadRowProps {
  upload: UploadEntry;
  onCancel: (id: string) => void;
  onPause?: (id: string, paused: boolean) => void;
}

const rowButton = 'flex size-7 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5 hover:text-ink';

/**
 * One upload: its name, a cancel button while it runs, a green check when done, a red icon when
 * canceled; a resumable one also pauses and resumes.
 */
export function UploadRow({ upload, onCancel, onPause }: UploadRowProps) {
  const running = !upload.completed && !upload.canceled;
  const state = upload.completed ? 'completed' : upload.canceled ? 'canceled' : 'uploading';
  return (
    <li data-testid="upload-row" data-state={upload.paused && running ? 'paused' : state} className="flex flex-col gap-1.5 px-4 py-2.5">
      <div className="flex items-center gap-3">
        <span className="min-w-0 flex-1 truncate text-sm text-ink" title={upload.name}>
          {upload.name}
        </span>
        {running && upload.resumable && onPause && (
          <button
            type="button"
            aria-label={`${upload.paused ? 'Resume' : 'Pause'} upload of ${upload.name}`}
            onClick={() => onPause(upload.id, !upload.paused)}
            className={rowButton}
          >
            {upload.paused ? <PlayIcon className="size-5" /> : <PauseIcon className="size-5" />}
          </button>
        )}
        {running && (
          <button type="button" aria-label={`Cancel upload of ${upload.name}`} onClick={() => onCancel(upload.id)} className={rowButton}>
            <CancelCircleIcon className="size-5" />
          </button>
        )}
        {upload.completed && <DoneCircleIcon className="size-6 shrink-0 text-green-600" title="Uploaded" />}
        {upload.canceled && <ErrorIcon className="size-6 shrink-0 text-red-600" title="Canceled" />}
      </div>
      {running && <ProgressBar upload={upload} />}
    </li>
  );
}
