import type { FolderDto } from '@nimbus/common';
import { FolderCard } from './FolderCard';
import { SortControl } from './ViewControls';

interface FoldersSectionProps {
  title: string;
  folders: FolderDto[];
  /** Show a "Shared" badge on folders of other accounts (in search results). */
  markShared?: boolean;
}

/** The folders of the page in a grid, under a title with the sort control. */
export function FoldersSection({ title, folders, markShared = false }: FoldersSectionProps) {
  return (
    <section aria-label={title} className="mt-6">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-base font-medium text-ink">{title}</h2>
        <SortControl />
      </div>
      {folders.length > 0 && (
        <div
          role="listbox"
          aria-label="Folders"
          aria-multiselectable="true"
          className="grid grid-cols-[repeat(auto-fill,minmax(150px,1fr))] sm:grid-cols-[repeat(auto-fill,minmax(190px,1fr))] gap-3"
        >
          {folders.map((folder) => (
            <FolderCard key={folder._id} folder={folder} markShared={markShared} />
          ))}
        </div>
      )}
    </section>
  );
}
