import type { FolderDto } from '@nimbus/common';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { ChevronDownIcon, ChevronRightIcon } from '../../components/drive-icons';
import { ArrowBackIcon } from '../../components/icons';
import { folderKeys } from '../../api/query-keys';
import { useItemMenu } from '../context-menu/useItemMenu';
import { driveApi, ROOT } from '../../api/drive.api';
import { folderItem, folderPath } from '../../api/drive-items';
import { useFolderInfoQuery } from './drive.queries';
import { RESTORE_SCROLL } from './useScrollMemory';

/** Where the recipient's breadcrumbs start (the "Shared with me" page). */
export const SHARED_WITH_ME_PATH = '/shared-with-me';

interface BreadcrumbProps {
  /** The open folder, or undefined while it loads. */
  folder: FolderDto | undefined;
  inTrash: boolean;
}

/** Back arrow (to the parent folder or the section root), the Home/Trash link and the open folder with its menu. */
export function Breadcrumb({ folder, inTrash }: BreadcrumbProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const shared = folder?.shared;
  const root = shared ? SHARED_WITH_ME_PATH : inTrash ? '/trash' : '/home';

  const back = async () => {
    // Above the shared folder are the owner's folders, which the recipient never sees.
    if (shared && folder?._id === shared.rootId) return void navigate(root, { state: RESTORE_SCROLL });
    const parent = folder?.parent ?? ROOT;
    if (parent === ROOT) return void navigate(root, { state: RESTORE_SCROLL });
    if (!inTrash) return void navigate(folderPath(parent, false), { state: RESTORE_SCROLL });
    // In the trash the parent is shown only if it is itself in the trash; otherwise the trash root is "up".
    const parentFolder = await queryClient
      .fetchQuery({ queryKey: folderKeys.info(parent), queryFn: () => driveApi.folderInfo(parent) })
      .catch(() => null);
    void navigate(parentFolder?.trashed ? folderPath(parent, true) : root, { state: RESTORE_SCROLL });
  };

  return (
    <nav aria-label="Breadcrumb" className="flex min-h-12 items-center gap-1 pt-3 text-ink">
      <button
        type="button"
        aria-label="Back"
        title="Back"
        onClick={() => void back()}
        className="flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
      >
        <ArrowBackIcon className="size-6" />
      </button>
      <Link to={root} className="shrink-0 rounded-full px-2 py-1.5 text-lg hover:bg-black/5">
        {shared ? 'Shared with me' : inTrash ? 'Trash' : 'Home'}
      </Link>
      <ChevronRightIcon className="size-5 shrink-0 text-muted" />
      {shared && folder && folder._id !== shared.rootId && (
        <ShareRootCrumb rootId={shared.rootId} parentIsRoot={folder.parent === shared.rootId} />
      )}
      {folder ? <CurrentFolder folder={folder} /> : <span className="h-6 w-32 animate-pulse rounded bg-gray-100" />}
    </nav>
  );
}

/** The shared folder the recipient's view starts at, then "…" when folders lie between it and the open one. */
function ShareRootCrumb({ rootId, parentIsRoot }: { rootId: string; parentIsRoot: boolean }) {
  const root = useFolderInfoQuery(rootId);
  return (
    <>
      <Link to={folderPath(rootId, false)} className="min-w-0 shrink truncate rounded-full px-2 py-1.5 text-lg hover:bg-black/5">
        {root.data?.name ?? 'Shared folder'}
      </Link>
      <ChevronRightIcon className="size-5 shrink-0 text-muted" />
      {!parentIsRoot && (
        <>
          <span aria-hidden="true" className="px-1 text-lg text-muted">
            …
          </span>
          <ChevronRightIcon className="size-5 shrink-0 text-muted" />
        </>
      )}
    </>
  );
}

function CurrentFolder({ folder }: { folder: FolderDto }) {
  const menu = useItemMenu(folderItem(folder), true);
  return (
    <>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={menu.isOpen}
        aria-current="page"
        onClick={(event) => {
          const rect = event.currentTarget.getBoundingClientRect();
          menu.open({ x: rect.left, y: rect.bottom + 4 });
        }}
        onContextMenu={(event) => {
          event.preventDefault();
          menu.open({ x: event.clientX, y: event.clientY });
        }}
        className="flex min-w-0 items-center gap-1 rounded-full px-2 py-1.5 text-lg hover:bg-black/5"
      >
        <span className="truncate">{folder.name}</span>
        <ChevronDownIcon className="size-5 shrink-0 text-muted" />
      </button>
      {menu.element}
    </>
  );
}
