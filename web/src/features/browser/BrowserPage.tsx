import { useRef, type MouseEvent } from 'react';
import type { SharedAccessDto } from '@nimbus/common';
import { FolderIcon, ShareIcon } from '../../components/icons';
import { lazyModule, useLazyModule } from '../../components/lazy-module';
import { ROLE_LABELS } from '../item-shares/share-messages';
import { Spinner } from '../../components/Spinner';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetSelected } from '../../state/selection.slice';
import { Breadcrumb } from './Breadcrumb';
import { ROOT } from '../../api/drive.api';
import { useFileListQuery, useFolderInfoQuery, useFolderListQuery, type BrowseScope } from './drive.queries';
import { FilesSection } from './FilesSection';
import { FoldersSection } from './FoldersSection';
import { QuickAccess } from './QuickAccess';
import { TrashNotice } from './TrashNotice';
import { useScrollMemory } from './useScrollMemory';

/** The trash's "Restore drive as it was…" (its dialog) is not needed to draw the page. */
const restoreDrive = lazyModule(() => import('../versions/RestoreAsOfDialog'));

export interface BrowserPageProps {
  section: 'home' | 'trash';
  /** The open folder (`/folder/{id}`, `/folder-trash/{id}`). */
  folderId?: string;
  /** The name search (`/search/{query}`, `/search-trash/{query}`). */
  search?: string;
}

/** Section titles: the folders title depends on where the page is and whether it has folders. */
export function folderTitleOf(props: BrowserPageProps, folderCount: number | undefined): string {
  if (props.section === 'trash') return 'Trash';
  if (props.search) return 'Search';
  if (folderCount === 0) return 'No Folders';
  return props.folderId ? 'Folders' : 'Home Folders';
}

/** The page's own (screen-reader) heading. */
export function pageTitleOf(props: BrowserPageProps, folderName: string | undefined): string {
  if (props.search) return props.section === 'trash' ? `Search in trash: ${props.search}` : `Search: ${props.search}`;
  if (props.folderId) return folderName ?? 'Folder';
  return props.section === 'trash' ? 'Trash' : 'Home';
}

export const filesTitleOf = (props: BrowserPageProps) =>
  props.section === 'home' && !props.folderId && !props.search ? 'Home Files' : 'Files';

/** Home, a folder, search results, the trash or a folder in the trash: the content area of the file browser. */
export function BrowserPage(props: BrowserPageProps) {
  const { section, folderId, search = '' } = props;
  const scope: BrowseScope = { parent: folderId ?? ROOT, search, trashMode: section === 'trash' };
  const scrollRef = useRef<HTMLDivElement>(null);
  const dispatch = useAppDispatch();
  const hasMainSelection = useAppSelector((state) => state.selection.mainSection.id !== '');
  const folders = useFolderListQuery(scope);
  const files = useFileListQuery(scope);
  const folder = useFolderInfoQuery(folderId);
  const isHomeRoot = section === 'home' && !folderId && !search;
  const RestoreDriveButton = useLazyModule(restoreDrive)?.RestoreDriveButton;

  useScrollMemory(scrollRef, folders.isSuccess && files.isSuccess);

  const clearSelection = (event: MouseEvent) => {
    if (hasMainSelection && !(event.target as HTMLElement).closest('[role="option"],[role="row"],button,a,select,input')) {
      dispatch(resetSelected());
    }
  };

  return (
    <div ref={scrollRef} className="h-full overflow-y-auto" data-testid="browser-scroll" onClick={clearSelection}>
      <div className="px-4 pb-28 sm:px-6">
        <h1 className="sr-only">{pageTitleOf(props, folder.data?.name)}</h1>
        {folderId && <Breadcrumb folder={folder.data} inTrash={section === 'trash'} />}
        {folder.data?.shared && <SharedByLine shared={folder.data.shared} />}
        {folder.isError && <MissingFolder />}
        {section === 'trash' && <TrashNotice />}
        {section === 'trash' && !folderId && !search && RestoreDriveButton && <RestoreDriveButton />}
        {isHomeRoot && <QuickAccess />}
        {folders.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading folders" />
          </div>
        ) : (
          <FoldersSection title={folderTitleOf(props, folders.data?.length ?? 0)} folders={folders.data ?? []} markShared={!!search} />
        )}
        <FilesSection title={filesTitleOf(props)} scope={scope} scrollRef={scrollRef} markShared={!!search} />
      </div>
    </div>
  );
}

/** Whose shared folder this is and what the account may do in it. */
function SharedByLine({ shared }: { shared: SharedAccessDto }) {
  return (
    <p data-testid="shared-by" className="mt-1 ml-12 flex items-center gap-2 text-sm text-muted">
      <ShareIcon className="size-4 shrink-0" />
      <span className="truncate">
        Shared by {shared.owner.email} · {ROLE_LABELS[shared.role]}
      </span>
    </p>
  );
}

function MissingFolder() {
  return (
    <div role="alert" className="mt-6 flex items-center gap-3 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-700">
      <FolderIcon className="size-5" />
      This folder does not exist or is no longer available.
    </div>
  );
}
