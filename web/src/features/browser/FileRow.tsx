import type { FileDto } from '@nimbus/common';
import { memo } from 'react';
import { useItemMenu } from '../context-menu/useItemMenu';
import { formatListDate } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { useItemInteractions } from '../selection/useItemInteractions';
import { ExtensionBadge } from './FileThumbnail';
import { fileItem } from '../../api/drive-items';
import { MoreButton } from './MoreButton';
import { SharedBadge } from './SharedBadge';
import { useOpenItem } from './useOpenItem';

export const FILE_ROW_HEIGHT = 52;

/** The columns of list view: Name, Size, Created (wider screens), Actions. */
export const LIST_COLUMNS = 'grid grid-cols-[minmax(0,1fr)_76px_52px] sm:grid-cols-[minmax(0,1fr)_96px_150px_64px] items-center gap-2';

export function FileListHeader() {
  return (
    <div role="row" className={`${LIST_COLUMNS} h-10 border-b border-gray-200 px-3 text-sm font-medium text-ink`}>
      <span role="columnheader">Name</span>
      <span role="columnheader">Size</span>
      <span role="columnheader" className="hidden sm:block">
        Created
      </span>
      <span role="columnheader" className="text-center">
        Actions
      </span>
    </div>
  );
}

/** A file in list view. */
export const FileRow = memo(function FileRow({
  file,
  markShared = false,
  subtitle,
}: {
  file: FileDto;
  /** Show the "Shared" badge when the file is another account's. */
  markShared?: boolean;
  /** A second line under the name (e.g. who shared it, and when). */
  subtitle?: string;
}) {
  const item = fileItem(file);
  const { openFile } = useOpenItem();
  const menu = useItemMenu(item);
  const { isSelected, isMultiSelected, handlers } = useItemInteractions({ item, onOpen: () => openFile(file), onMenu: menu.open });
  const selected = isSelected || isMultiSelected;
  return (
    <div
      role="row"
      aria-selected={selected}
      aria-label={file.filename}
      data-item-id={file._id}
      tabIndex={0}
      className={`${LIST_COLUMNS} h-full cursor-default border-b border-gray-100 px-3 text-sm outline-none select-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-inset ${
        selected ? 'bg-selected' : 'hover:bg-[#f0f4f9]'
      }`}
      {...handlers}
    >
      <span role="gridcell" className="flex min-w-0 items-center gap-3">
        <ExtensionBadge filename={file.filename} compact />
        <span className="flex min-w-0 flex-col">
          <span className="truncate text-ink" title={file.filename}>
            {file.filename}
          </span>
          {subtitle && <span className="truncate text-xs text-muted">{subtitle}</span>}
        </span>
        {markShared && file.shared && <SharedBadge />}
      </span>
      <span role="gridcell" className="truncate text-muted">
        {formatBytes(file.length)}
      </span>
      <span role="gridcell" className="hidden truncate text-muted sm:block">
        {formatListDate(file.uploadDate)}
      </span>
      <span role="gridcell" className="flex justify-center">
        <MoreButton name={file.filename} onOpen={menu.open} />
      </span>
      {menu.element}
    </div>
  );
});
