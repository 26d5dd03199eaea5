import type { SharedFileDto } from '@nimbus/common';
import { useEffect } from 'react';
import { sharedUrls } from '../../api/share-links.api';
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon } from '../../components/file-icons';
import { CloseIcon } from '../../components/icons';

interface Props {
  token: string;
  files: SharedFileDto[];
  index: number;
  allowDownload: boolean;
  onMove(index: number): void;
  onClose(): void;
}

/** A shared picture or video, full size over the page, with previous/next among the previewable ones. */
export function SharedPreview({ token, files, index, allowDownload, onMove, onClose }: Props) {
  const file = files[index]!;
  const previous = index > 0 ? index - 1 : null;
  const next = index < files.length - 1 ? index + 1 : null;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      if (event.key === 'ArrowLeft' && previous !== null) onMove(previous);
      if (event.key === 'ArrowRight' && next !== null) onMove(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, onMove, previous, next]);

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={file.filename}
      className="fixed inset-0 z-50 flex flex-col bg-black/90"
      onClick={onClose}
    >
      <div className="flex items-center gap-3 p-3 text-white" onClick={(event) => event.stopPropagation()}>
        <span className="rounded bg-white/15 px-2 py-0.5 text-xs font-medium uppercase">{file.isVideo ? 'video' : 'image'}</span>
        <span className="min-w-0 flex-1 truncate text-sm">{file.filename}</span>
        {allowDownload && (
          <a href={sharedUrls.download(token, file.id)} download aria-label={`Download ${file.filename}`} className={ROUND}>
            <DownloadIcon className="size-5" />
          </a>
        )}
        <button type="button" aria-label="Close preview" onClick={onClose} className={ROUND}>
          <CloseIcon className="size-5" />
        </button>
      </div>
      <div className="relative flex min-h-0 flex-1 items-center justify-center p-4">
        {file.isVideo ? (
          <video
            key={file.id}
            src={sharedUrls.preview(token, file.id)}
            controls
            autoPlay
            className="max-h-full max-w-full"
            onClick={(event) => event.stopPropagation()}
          />
        ) : (
          <img
            key={file.id}
            src={sharedUrls.preview(token, file.id)}
            alt={file.filename}
            className="max-h-full max-w-full object-contain"
            onClick={(event) => event.stopPropagation()}
          />
        )}
        {previous !== null && <StepButton label="Previous" side="left-4" onClick={() => onMove(previous)} />}
        {next !== null && <StepButton label="Next" side="right-4" onClick={() => onMove(next)} />}
      </div>
    </div>
  );
}

const ROUND = 'flex size-11 items-center justify-center rounded-full bg-white/10 text-white hover:bg-white/20';

/** Previous or next, over the picture; a click never reaches the backdrop (which closes). */
function StepButton({ label, side, onClick }: { label: 'Previous' | 'Next'; side: string; onClick(): void }) {
  const Icon = label === 'Previous' ? ChevronLeftIcon : ChevronRightIcon;
  return (
    <button
      type="button"
      aria-label={label}
      className={`${ROUND} absolute top-1/2 ${side} -translate-y-1/2`}
      onClick={(event) => {
        event.stopPropagation();
        onClick();
      }}
    >
      <Icon className="size-6" />
    </button>
  );
}
