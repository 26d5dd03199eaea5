import type { FolderDto } from '@nimbus/common';
import { memo } from 'react';
import { FolderIcon } from '../../components/icons';
import { useItemMenu } from '../context-menu/useItemMenu';
import { useItemInteractions } from '../selection/useItemInteractions';
import { folderItem } from '../../api/drive-items';
import { MoreButton } from './MoreButton';
import { SharedBadge } from './SharedBadge';
import { useOpenItem } from './useOpenItem';

/** A folder in the folders grid. */
export const FolderCard = memo(function FolderCard({
  folder,
  markShared = false,
  subtitle,
}: {
  folder: FolderDto;
  /** Show the "Shared" badge when the folder is another account's. */
  markShared?: boolean;
  /** A second line under the name (e.g. who shared it, and when). */
  subtitle?: string;
}) {
  const item = folderItem(folder);
  const { openFolder } = useOpenItem();
  const menu = useItemMenu(item);
  const { isSelected, isMultiSelected, handlers } = useItemInteractions({ item, onOpen: () => openFolder(folder), onMenu: menu.open });
  const selected = isSelected || isMultiSelected;
  return (
    <div
      role="option"
      aria-selected={selected}
      aria-label={folder.name}
      data-item-id={folder._id}
      tabIndex={0}
      className={`flex h-14 min-w-0 cursor-default items-center gap-3 rounded-xl pr-1 pl-4 outline-none select-none focus-visible:ring-2 focus-visible:ring-primary ${
        selected ? 'bg-selected' : 'bg-[#f0f4f9] hover:bg-[#e1e5ea]'
      }`}
      {...handlers}
    >
      <FolderIcon className="size-6 shrink-0 text-muted" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate text-sm font-medium text-ink" title={folder.name}>
          {folder.name}
        </span>
        {subtitle && (
          <span className="truncate text-xs text-muted" title={subtitle}>
            {subtitle}
          </span>
        )}
      </span>
      {markShared && folder.shared && <SharedBadge />}
      <MoreButton name={folder.name} onOpen={menu.open} />
      {menu.element}
    </div>
  );
});
