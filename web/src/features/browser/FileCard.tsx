import type { FileDto } from '@nimbus/common';
import { memo } from 'react';
import { useItemMenu } from '../context-menu/useItemMenu';
import { formatListDate } from '../format/format-date';
import { useItemInteractions } from '../selection/useItemInteractions';
import { ExtensionBadge, FileThumbnail } from './FileThumbnail';
import { fileItem } from '../../api/drive-items';
import { MoreButton } from './MoreButton';
import { SharedBadge } from './SharedBadge';
import { useOpenItem } from './useOpenItem';

/** Height of a file card in the grid. */
export const FILE_CARD_HEIGHT = 196;

const itemClass = (selected: boolean) =>
  `group flex h-full min-w-0 cursor-default flex-col overflow-hidden rounded-xl outline-none select-none focus-visible:ring-2 focus-visible:ring-primary ${
    selected ? 'bg-selected' : 'bg-[#f0f4f9] hover:bg-[#e1e5ea]'
  }`;

interface FileCardProps {
  file: FileDto;
  quick?: boolean;
  /** Show the "Shared" badge when the file is another account's. */
  markShared?: boolean;
  /** Replaces the created date under the thumbnail (e.g. who shared it, and when). */
  subtitle?: string;
}

/** A file in the grid (and the Quick Access strip): name, thumbnail or extension, created date and its menu. */
export const FileCard = memo(function FileCard({ file, quick = false, markShared = false, subtitle }: FileCardProps) {
  const item = fileItem(file);
  const { openFile } = useOpenItem();
  const menu = useItemMenu(item);
  const { isSelected, isMultiSelected, handlers } = useItemInteractions({
    item,
    selectionType: quick ? 'quick-item' : 'file',
    onOpen: () => openFile(file, quick),
    onMenu: menu.open,
  });
  const selected = isSelected || isMultiSelected;
  return (
    <div
      role="option"
      aria-selected={selected}
      aria-label={file.filename}
      data-item-id={file._id}
      tabIndex={0}
      className={itemClass(selected)}
      style={{ height: FILE_CARD_HEIGHT }}
      {...handlers}
    >
      <div className="flex h-12 shrink-0 items-center gap-2.5 pr-1 pl-3">
        <ExtensionBadge filename={file.filename} compact />
        <span className="min-w-0 flex-1 truncate text-sm font-medium text-ink" title={file.filename}>
          {file.filename}
        </span>
        {markShared && file.shared && <SharedBadge />}
        <MoreButton name={file.filename} onOpen={menu.open} />
      </div>
      <FileThumbnail file={file} className="mx-2 h-[112px] shrink-0 rounded-lg bg-white" />
      <p className="truncate px-3 pt-2 text-xs text-muted" title={subtitle}>
        {subtitle ?? `Created ${formatListDate(file.uploadDate)}`}
      </p>
      {menu.element}
    </div>
  );
});
