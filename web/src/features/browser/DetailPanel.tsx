import { FileIcon } from '../../components/drive-icons';
import { CloseIcon, FolderIcon } from '../../components/icons';
import { lazyModule, useLazyModule } from '../../components/lazy-module';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { resetSelected } from '../../state/selection.slice';
import { extensionBadge, shortenMiddle } from '../format/file-name';
import { formatDay } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { ROLE_LABELS } from '../item-shares/share-messages';

/** The links part (its queries, list and dialogs) is not needed to draw the page: it loads once the panel is on screen. */
const itemLinks = lazyModule(() => import('../share-links/ItemLinks'));
const peopleWithAccess = lazyModule(() => import('../item-shares/PeopleWithAccess'));
const fileVersions = lazyModule(() => import('../versions/FileVersions'));

/** Longest name the panel shows before shortening it in the middle with an ellipsis. */
export const PANEL_NAME_MAX = 66;
export const PANEL_EMPTY_TEXT = "Select a file or folder to view it's details";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="text-sm break-words text-ink">{value}</dd>
    </div>
  );
}

/** The right-hand panel of wide screens: the selected item's name, type, size, created date and access. */
export function DetailPanel() {
  const dispatch = useAppDispatch();
  const { file, folder } = useAppSelector((state) => state.selection.mainSection);
  const ItemLinks = useLazyModule(itemLinks)?.ItemLinks;
  const PeopleWithAccess = useLazyModule(peopleWithAccess)?.PeopleWithAccess;
  const FileVersions = useLazyModule(fileVersions)?.FileVersions;
  const shared = file?.shared ?? folder?.shared;

  return (
    <aside aria-label="Details" className="hidden w-72 shrink-0 flex-col overflow-y-auto rounded-2xl bg-white p-5 xl:mr-4 xl:mb-4 xl:flex">
      {!file && !folder ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-4 text-center">
          <FileIcon className="size-16 text-gray-300" />
          <p className="text-sm text-muted">{PANEL_EMPTY_TEXT}</p>
        </div>
      ) : (
        <>
          <div className="flex items-start gap-3">
            {file ? (
              <FileIcon className="mt-0.5 size-6 shrink-0 text-muted" />
            ) : (
              <FolderIcon className="mt-0.5 size-6 shrink-0 text-muted" />
            )}
            <h2 className="min-w-0 flex-1 text-base font-medium break-words text-ink" title={file?.filename ?? folder?.name}>
              {shortenMiddle(file?.filename ?? folder?.name ?? '', PANEL_NAME_MAX)}
            </h2>
            <button
              type="button"
              aria-label="Close details"
              onClick={() => dispatch(resetSelected())}
              className="-mt-1 -mr-2 flex size-9 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
            >
              <CloseIcon className="size-5" />
            </button>
          </div>
          <dl className="mt-6 flex flex-col gap-4">
            {file ? (
              <>
                <Row label="Type" value={extensionBadge(file.filename)} />
                <Row label="Size" value={formatBytes(file.length)} />
                <Row label="Created" value={formatDay(file.uploadDate)} />
                <Row label="Access" value={file.metadata.linkType ? 'Public' : 'Private'} />
              </>
            ) : (
              folder && (
                <>
                  <Row label="Type" value="Folder" />
                  <Row label="Created" value={formatDay(folder.createdAt)} />
                </>
              )
            )}
            {shared && (
              <>
                <Row label="Owner" value={shared.owner.email} />
                <Row label="Your access" value={ROLE_LABELS[shared.role]} />
              </>
            )}
          </dl>
          {/* Links and people with access are the owner's to see and change. */}
          {shared || !ItemLinks ? null : file ? (
            <ItemLinks key={file._id} item={{ type: 'file', id: file._id, name: file.filename }} />
          ) : (
            folder && <ItemLinks key={folder._id} item={{ type: 'folder', id: folder._id, name: folder.name }} />
          )}
          {!shared && PeopleWithAccess && (file || folder) && (
            <div className="mt-6 border-t border-gray-100 pt-4">
              <PeopleWithAccess
                key={file?._id ?? folder?._id}
                compact
                item={file ? { itemType: 'file', itemId: file._id } : { itemType: 'folder', itemId: folder!._id }}
              />
            </div>
          )}
          {/* Everyone who may read the file sees its versions; what they may do with them goes by their role. */}
          {file && FileVersions && (
            <div className="mt-6 border-t border-gray-100 pt-4">
              <FileVersions key={file._id} file={file} />
            </div>
          )}
        </>
      )}
    </aside>
  );
}
