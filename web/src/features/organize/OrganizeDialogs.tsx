import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PromptDialog } from '../../components/PromptDialog';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { closeConfirm, closeCreateFolder, closeRename, type ConfirmAction, type OrganizeItem } from '../../state/organize.slice';
import { CONFIRMATIONS, ORGANIZE_MESSAGES } from './messages';
import { useOrganizeActions } from './useOrganizeActions';

const requireName = (value: string) => (value.trim() ? null : ORGANIZE_MESSAGES.enterName);

/** Characters of a file name before its extension (what a rename selects first). */
function baseNameLength(item: OrganizeItem): number | undefined {
  if (item.type !== 'file') return undefined;
  const dot = item.name.lastIndexOf('.');
  return dot > 0 ? dot : undefined;
}

function question(action: ConfirmAction, items: OrganizeItem[]): { title: string; text?: string; danger: boolean } {
  const [only] = items;
  const single = items.length === 1 && only;
  if (action === 'trash') return { ...CONFIRMATIONS.trash, danger: true };
  if (action === 'restore') return { ...(single ? CONFIRMATIONS.restoreItem : CONFIRMATIONS.restoreItems), danger: false };
  if (!single) return { ...CONFIRMATIONS.deleteItems, danger: true };
  return { ...(only.type === 'folder' ? CONFIRMATIONS.deleteFolder : CONFIRMATIONS.deleteFile), danger: true };
}

/** The create-folder and rename prompts and the trash/restore/delete confirmations, opened from anywhere by dispatching. */
export function OrganizeDialogs() {
  const dispatch = useAppDispatch();
  const { createFolder, rename, confirm } = useAppSelector((state) => state.organize);
  const actions = useOrganizeActions();

  return (
    <>
      {createFolder && (
        <PromptDialog
          title="Create Folder"
          label="Folder name"
          submitLabel="Create"
          validate={requireName}
          onCancel={() => dispatch(closeCreateFolder())}
          onSubmit={(name) => {
            dispatch(closeCreateFolder());
            void actions.createFolder(name.trim(), createFolder.parent);
          }}
        />
      )}
      {rename && (
        <PromptDialog
          key={`${rename.type}:${rename.id}`}
          title="Rename"
          label="New name"
          initialValue={rename.name}
          selectLength={baseNameLength(rename)}
          submitLabel="Rename"
          validate={requireName}
          onCancel={() => dispatch(closeRename())}
          onSubmit={(name) => {
            dispatch(closeRename());
            const title = name.trim();
            if (title && title !== rename.name) void actions.rename(rename, title);
          }}
        />
      )}
      {confirm && (
        <ConfirmDialog
          {...question(confirm.action, confirm.items)}
          confirmLabel="Yes"
          onCancel={() => dispatch(closeConfirm())}
          onConfirm={() => {
            dispatch(closeConfirm());
            const run = { trash: actions.trash, restore: actions.restore, delete: actions.remove }[confirm.action];
            void run(confirm.items);
          }}
        />
      )}
    </>
  );
}
