import type { FileDto } from '@nimbus/common';
import { useId, useState } from 'react';
import { publicLinkOf, type Permission } from '../../api/sharing.api';
import { Button } from '../../components/Button';
import { CopyIcon, LinkIcon } from '../../components/file-icons';
import { useAppDispatch } from '../../state/hooks';
import { resetShareSelected } from '../../state/selection.slice';
import { toast } from '../notifications/toast';
import { copyText } from '../popups/file-format';
import { PeopleWithAccess } from '../item-shares/PeopleWithAccess';
import { FILE_MESSAGES } from '../popups/file-messages';
import { PopupCard } from '../popups/PopupCard';
import { LinkOptionsDialog } from '../share-links/LinkOptionsDialog';
import { useSlideClose } from '../popups/useSlideClose';
import { PERMISSIONS } from './share-texts';
import { useChangeLink } from './useChangeLink';

/** "Share file": the link with "Copy link", and the Permission select (Private, Public, Temporary). */
export function SharePopup({ file }: { file: FileDto }) {
  const dispatch = useAppDispatch();
  const selectId = useId();
  const { closing, close } = useSlideClose(() => dispatch(resetShareSelected()));
  const { change, pending } = useChangeLink();
  const [moreOptions, setMoreOptions] = useState(false);
  const permission: Permission = file.metadata.linkType ?? 'private';
  const link = permission === 'private' ? '' : publicLinkOf(file);
  const current = PERMISSIONS.find((p) => p.value === permission) ?? PERMISSIONS[0]!;

  const copyLink = () => {
    if (!link) return;
    void copyText(link).then(() => toast.success(FILE_MESSAGES.linkCopied));
  };

  return (
    <PopupCard title="Share file" closing={closing} onClose={close} testId="share-popup">
      <p className="-mt-2 mb-4 truncate text-sm text-muted" title={file.filename}>
        {file.filename}
      </p>
      <div className="flex items-center gap-2 rounded-2xl border border-gray-200 bg-surface py-2 pr-2 pl-3">
        <LinkIcon className="size-5 shrink-0 text-muted" />
        <input
          readOnly
          aria-label="Link"
          value={link || FILE_MESSAGES.documentIsPrivate}
          onFocus={(event) => link && event.target.select()}
          className={`min-w-0 flex-1 bg-transparent text-sm outline-none ${link ? 'text-ink' : 'text-muted'}`}
        />
        <Button variant="text" className="h-9 shrink-0 px-3" onClick={copyLink} aria-disabled={!link}>
          <CopyIcon className="size-4" /> Copy link
        </Button>
      </div>
      <label htmlFor={selectId} className="mt-6 mb-1 block text-sm font-medium text-ink">
        Permission
      </label>
      <select
        id={selectId}
        value={permission}
        disabled={pending}
        onChange={(event) => void change(file, event.target.value as Permission)}
        className="h-11 w-full rounded-lg border border-gray-300 bg-white px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20 disabled:bg-gray-50 disabled:text-gray-400"
      >
        {PERMISSIONS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
      <p className="mt-2 text-sm text-muted" data-testid="permission-help">
        {current.help}
      </p>
      {/* Other accounts of this server, beside the link; only the owner sees or changes them. */}
      {!file.shared && <PeopleWithAccess item={{ itemType: 'file', itemId: file._id }} />}
      <div className="mt-6 flex items-center justify-between gap-2">
        {/* Links with a password, an expiry or a download limit: beside the file's one link, never instead of it. */}
        <Button variant="text" className="px-3" onClick={() => setMoreOptions(true)}>
          More options
        </Button>
        <Button onClick={close}>Done</Button>
      </div>
      {moreOptions && (
        <LinkOptionsDialog item={{ type: 'file', id: file._id, name: file.filename }} onClose={() => setMoreOptions(false)} />
      )}
    </PopupCard>
  );
}
