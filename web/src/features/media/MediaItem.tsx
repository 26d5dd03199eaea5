import type { FileDto } from '@nimbus/common';
import { memo, useState, type PointerEvent, type TouchEvent } from 'react';
import { refreshSession } from '../../api/client';
import { thumbnailUrl } from '../../api/media.api';
import { BrokenImageIcon, PlayIcon, VideoIcon } from '../../components/file-icons';
import { PhotoIcon } from '../../components/icons';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { setPopupSelect } from '../../state/selection.slice';
import { fileItem } from '../../api/drive-items';
import { useItemMenu } from '../context-menu/useItemMenu';
import { useItemInteractions } from '../selection/useItemInteractions';
import { LiveBadge, useLiveMotion } from './live-motion';

function Thumbnail({ file }: { file: FileDto }) {
  const disabled = useAppSelector((state) => state.general.loadThumbnailsDisabled);
  const [attempt, setAttempt] = useState(0);
  if (attempt > 1) {
    return (
      <div className="flex size-full items-center justify-center bg-red-50" data-testid="thumbnail-error">
        <BrokenImageIcon className="size-8 text-red-500" title="Thumbnail failed to load" />
      </div>
    );
  }
  if (disabled || !file.metadata.hasThumbnail || !file.metadata.thumbnailID) {
    const Icon = file.metadata.isVideo ? VideoIcon : PhotoIcon;
    return (
      <div className="flex size-full items-center justify-center bg-gray-100">
        <Icon className="size-10 text-gray-400" />
      </div>
    );
  }
  // The first failure may be an expired session: refresh it and try once more before showing the error icon.
  const retry = () =>
    attempt === 0
      ? void refreshSession().then(
          () => setAttempt(1),
          () => setAttempt(2),
        )
      : setAttempt(2);
  const src = thumbnailUrl(file.metadata.thumbnailID);
  return (
    <img
      src={attempt === 0 ? src : `${src}?retry=1`}
      alt=""
      loading="lazy"
      decoding="async"
      draggable={false}
      onError={retry}
      className="size-full object-cover"
    />
  );
}

/** One square tile of the media grid: select, open on a second click, menu on right-click or long press. */
export const MediaItem = memo(function MediaItem({ file }: { file: FileDto }) {
  const dispatch = useAppDispatch();
  const item = fileItem(file);
  const menu = useItemMenu(item);
  const { isSelected, isMultiSelected, handlers } = useItemInteractions({
    item,
    onOpen: () => dispatch(setPopupSelect({ type: 'file', file })),
    onMenu: menu.open,
  });
  const highlighted = isSelected || isMultiSelected;
  const live = useLiveMotion(file);
  // Hover plays a Live Photo's motion; on a touch screen, pressing it does.
  const liveHandlers = live.hasMotion
    ? {
        onPointerEnter: (event: PointerEvent) => event.pointerType === 'mouse' && live.start(),
        onPointerLeave: live.stop,
        onTouchStart: (event: TouchEvent) => {
          handlers.onTouchStart(event);
          live.start();
        },
        onTouchEnd: (event: TouchEvent) => {
          handlers.onTouchEnd(event);
          live.stop();
        },
        onTouchCancel: () => {
          handlers.onTouchCancel();
          live.stop();
        },
      }
    : {};

  return (
    <>
      <div
        role="button"
        tabIndex={0}
        aria-label={file.filename}
        aria-pressed={highlighted}
        data-testid="media-item"
        data-video={file.metadata.isVideo}
        data-live={live.hasMotion || undefined}
        title={file.filename}
        {...handlers}
        {...liveHandlers}
        className={`relative aspect-square overflow-hidden bg-gray-100 outline-none select-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-inset ${highlighted ? 'ring-4 ring-primary ring-inset' : ''}`}
      >
        <Thumbnail file={file} />
        {live.element}
        {live.hasMotion && <LiveBadge />}
        {highlighted && <div className="pointer-events-none absolute inset-0 bg-primary/20" />}
        {file.metadata.isVideo && (
          <span
            data-testid="play-badge"
            className="pointer-events-none absolute right-1.5 bottom-1.5 flex size-7 items-center justify-center rounded-full bg-black/60 text-white"
          >
            <PlayIcon className="size-5" />
          </span>
        )}
      </div>
      {menu.element}
    </>
  );
});
