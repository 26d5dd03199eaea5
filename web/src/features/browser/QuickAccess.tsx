import { useId, useState } from 'react';
import { ChevronDownIcon } from '../../components/drive-icons';
import { Spinner } from '../../components/Spinner';
import { useQuickListQuery } from './drive.queries';
import { FileCard } from './FileCard';

/** The 20 most recent files in a strip that can be collapsed (only on /home). */
export function QuickAccess() {
  const [open, setOpen] = useState(true);
  const query = useQuickListQuery(true);
  const regionId = useId();
  const files = query.data ?? [];
  return (
    <section aria-label="Quick Access" className="mt-4">
      <h2 className="mb-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((value) => !value)}
          className="-ml-2 flex h-9 items-center gap-1 rounded-full pr-3 pl-2 text-base font-medium text-ink hover:bg-black/5"
        >
          <ChevronDownIcon className={`size-5 transition-transform ${open ? '' : '-rotate-90'}`} />
          Quick Access
        </button>
      </h2>
      {open && (
        <div id={regionId}>
          {query.isPending ? (
            <Spinner className="size-6" label="Loading recent files" />
          ) : files.length === 0 ? (
            <p className="py-2 text-sm text-muted">No recent files</p>
          ) : (
            <div
              role="listbox"
              aria-label="Recent files"
              aria-multiselectable="true"
              className="-mx-1 flex gap-3 overflow-x-auto px-1 pb-2"
            >
              {files.map((file) => (
                <div key={file._id} className="w-[172px] shrink-0">
                  <FileCard file={file} quick />
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
