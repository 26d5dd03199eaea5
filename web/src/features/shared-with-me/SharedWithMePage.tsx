import { useCallback, useMemo, useRef } from 'react';
import type { DriveItem } from '../../api/drive-items';
import { itemId } from '../../api/drive-items';
import { CloseIcon, PeopleIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { useAppSelector } from '../../state/hooks';
import { FileGrid } from '../browser/FileGrid';
import { FolderCard } from '../browser/FolderCard';
import { ViewToggle } from '../browser/ViewControls';
import { ItemMenuExtras } from '../context-menu/item-menu-extras';
import { sharedItemsOf } from './shared-items';
import { useSharedWithMe } from './useSharedWithMe';

export const REMOVE_FROM_SHARED = 'Remove from Shared with me';

/** /shared-with-me: the files and folders other accounts of the server shared with this one. */
export function SharedWithMePage() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listView = useAppSelector((state) => state.general.listView);
  const { list, leave } = useSharedWithMe();
  const items = useMemo(() => sharedItemsOf(list.data ?? []), [list.data]);
  const { folders, files, entries } = items;

  const extraEntries = useCallback(
    (item: DriveItem) => {
      const entry = entries.get(itemId(item));
      return entry ? [{ label: REMOVE_FROM_SHARED, icon: CloseIcon, onSelect: () => leave.mutate(entry.shareId) }] : [];
    },
    [entries, leave],
  );
  const caption = (id: string) => entries.get(id)?.caption;

  return (
    <div ref={scrollRef} className="h-full overflow-y-auto" data-testid="shared-with-me-scroll">
      <div className="px-4 pb-28 sm:px-6">
        <h1 className="py-4 text-xl font-medium text-ink">Shared with me</h1>
        <ItemMenuExtras entries={extraEntries}>
          {list.isPending ? (
            <div className="flex justify-center py-8">
              <Spinner label="Loading shared items" />
            </div>
          ) : list.isError ? (
            <p role="alert" className="text-sm text-red-600">
              Shared items could not be loaded
            </p>
          ) : folders.length === 0 && files.length === 0 ? (
            <div className="flex flex-col items-center gap-3 py-16 text-center text-muted">
              <PeopleIcon className="size-12 text-gray-300" />
              <p className="text-sm">Nothing has been shared with you yet.</p>
            </div>
          ) : (
            <>
              {folders.length > 0 && (
                <section aria-label="Shared folders" className="mt-2">
                  <h2 className="mb-3 text-base font-medium text-ink">Folders</h2>
                  <div
                    role="listbox"
                    aria-label="Folders"
                    aria-multiselectable="true"
                    className="grid grid-cols-[repeat(auto-fill,minmax(190px,1fr))] gap-3 sm:grid-cols-[repeat(auto-fill,minmax(240px,1fr))]"
                  >
                    {folders.map((folder) => (
                      <FolderCard key={folder._id} folder={folder} subtitle={caption(folder._id)} />
                    ))}
                  </div>
                </section>
              )}
              {files.length > 0 && (
                <section aria-label="Shared files" className="mt-8">
                  <div className="mb-3 flex items-center justify-between gap-2">
                    <h2 className="text-base font-medium text-ink">Files</h2>
                    <ViewToggle />
                  </div>
                  <FileGrid files={files} listView={listView} scrollRef={scrollRef} subtitleOf={(file) => caption(file._id)} />
                </section>
              )}
            </>
          )}
        </ItemMenuExtras>
      </div>
    </div>
  );
}
