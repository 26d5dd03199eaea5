import { FolderIcon } from '../../components/icons';
import { isSortAscending, isSortByName } from '../../state/filter.slice';
import { useAppSelector } from '../../state/hooks';

/** The content area of a file-browser page until the file list is built: its title and the view preferences it will use. */
export function BrowserPlaceholder({ title }: { title: string }) {
  const general = useAppSelector((state) => state.general);
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const view = [
    general.listView ? 'List view' : 'Grid view',
    `Sorted by ${isSortByName(sortBy) ? 'name' : 'date'}, ${isSortAscending(sortBy) ? 'ascending' : 'descending'}`,
    general.singleClickFolders ? 'Folders open with one click' : 'Folders open with a double click',
    general.loadThumbnailsDisabled ? 'Thumbnails off' : 'Thumbnails on',
  ];
  return (
    <section className="flex h-full flex-col p-4 sm:p-6">
      <h1 className="mb-4 truncate text-2xl font-normal text-ink">{title}</h1>
      <div
        data-testid="content-placeholder"
        data-list-view={general.listView}
        data-sort-by={sortBy}
        data-single-click-folders={general.singleClickFolders}
        data-thumbnails-disabled={general.loadThumbnailsDisabled}
        className="flex flex-1 flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed border-gray-200 p-8 text-center"
      >
        <FolderIcon className="size-14 text-gray-300" />
        <p className="text-base text-muted">Your files and folders will appear here.</p>
        <p className="text-xs text-gray-400">{view.join(' · ')}</p>
      </div>
    </section>
  );
}
