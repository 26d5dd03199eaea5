import type { FileDto } from '@nimbus/common';
import { useState } from 'react';
import { refreshSession } from '../../api/client';
import { FileIcon, PlayCircleIcon } from '../../components/drive-icons';
import { useAppSelector } from '../../state/hooks';
import { badgeColor, extensionBadge } from '../format/file-name';
import { thumbnailUrl } from '../../api/drive.api';

/** The coloured extension square (up to 4 characters, 3 when compact, "UNK" without an extension). */
export function ExtensionBadge({ filename, compact = false, className = '' }: { filename: string; compact?: boolean; className?: string }) {
  return (
    <span
      aria-hidden="true"
      style={{ background: badgeColor(filename) }}
      className={`inline-flex shrink-0 items-center justify-center rounded-[4px] font-semibold text-white ${compact ? 'size-7 text-[9px]' : 'size-8 text-[10px]'} ${className}`}
    >
      {extensionBadge(filename, compact ? 3 : 4)}
    </span>
  );
}

/** True when the file has a thumbnail and the "Load thumbnails" preference is on. */
export function useShowsThumbnail(file: FileDto): boolean {
  const disabled = useAppSelector((state) => state.general.loadThumbnailsDisabled);
  return !disabled && file.metadata.hasThumbnail && !!file.metadata.thumbnailID;
}

/**
 * A file's picture in a card: its thumbnail when it has one and thumbnails are on (with a play badge on
 * videos), otherwise a document glyph with the extension.
 */
export function FileThumbnail({ file, className = '' }: { file: FileDto; className?: string }) {
  const shows = useShowsThumbnail(file);
  const [attempt, setAttempt] = useState(0);
  const failed = attempt > 1;

  if (!shows || failed) {
    return (
      <div className={`relative flex items-center justify-center ${className}`} style={{ color: badgeColor(file.filename) }}>
        <FileIcon className="size-16" />
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center pt-3 text-xs font-semibold text-white">
          {extensionBadge(file.filename, 4)}
        </span>
      </div>
    );
  }

  const retry = () => {
    // The first failure may be an expired session: refresh it and try once more.
    if (attempt === 0)
      void refreshSession().then(
        () => setAttempt(1),
        () => setAttempt(2),
      );
    else setAttempt(2);
  };
  return (
    <div className={`relative overflow-hidden ${className}`}>
      <img
        src={attempt === 0 ? thumbnailUrl(file.metadata.thumbnailID) : `${thumbnailUrl(file.metadata.thumbnailID)}?retry=1`}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={retry}
        className="size-full object-cover"
      />
      {file.metadata.isVideo && (
        <span className="absolute inset-0 flex items-center justify-center text-white drop-shadow">
          <PlayCircleIcon className="size-12" />
        </span>
      )}
    </div>
  );
}
