import { createContext, useContext, type ReactNode } from 'react';
import type { DriveItem } from '../../api/drive-items';
import type { ContextMenuEntry } from './ContextMenu';

type ExtraEntries = (item: DriveItem) => ContextMenuEntry[];

const ItemMenuExtrasContext = createContext<ExtraEntries | null>(null);

/** Entries a page adds to the menus of the items it lists (e.g. "Remove from Shared with me"), after the usual ones. */
export function ItemMenuExtras({ entries, children }: { entries: ExtraEntries; children: ReactNode }) {
  return <ItemMenuExtrasContext.Provider value={entries}>{children}</ItemMenuExtrasContext.Provider>;
}

export function useItemMenuExtras(item: DriveItem): ContextMenuEntry[] {
  return useContext(ItemMenuExtrasContext)?.(item) ?? [];
}
