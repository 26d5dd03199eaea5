import type { ShareLinkDto, ShareLinkKind, SharedItemType, UpdateShareLinkBody } from '@nimbus/common';
import { SHARE_LIMITS } from '@nimbus/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../api/api-error';
import { shareLinkKeys } from '../../api/query-keys';
import { createShareLink, updateShareLink } from '../../api/share-links.api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { toast } from '../notifications/toast';

const MB = 1024 * 1024;

interface Props {
  item: { type: SharedItemType; id: string; name: string };
  /** The link to edit; a new link when absent. */
  link?: ShareLinkDto;
  onClose(): void;
  onSaved?(link: ShareLinkDto): void;
}

/** `datetime-local` speaks local time without a zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/** A whole number of at least 1, or empty for "no limit". */
function CountField({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return (
    <Field label={label}>
      {(id) => (
        <input id={id} type="number" min={1} step={1} value={value} onChange={(e) => onChange(e.target.value)} className={inputClass} />
      )}
    </Field>
  );
}

const inputClass =
  'h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20';

/** A link's options: what it allows, a password, an expiry, and its limits. Creates or edits. */
export function LinkOptionsDialog({ item, link, onClose, onSaved }: Props) {
  const client = useQueryClient();
  const [kind, setKind] = useState<ShareLinkKind>(link?.kind ?? 'view');
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [expiresAt, setExpiresAt] = useState(toLocalInput(link?.expiresAt ?? null));
  const [maxDownloads, setMaxDownloads] = useState(link?.maxDownloads?.toString() ?? '');
  const [allowDownload, setAllowDownload] = useState(link?.allowDownload ?? true);
  const [maxFileMb, setMaxFileMb] = useState(link?.maxFileBytes ? String(Math.round(link.maxFileBytes / MB)) : '');
  const [maxFiles, setMaxFiles] = useState(link?.maxFiles?.toString() ?? '');

  const save = useMutation<ShareLinkDto, ApiError>({
    mutationFn: () => {
      const options: UpdateShareLinkBody = {
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
        ...(kind === 'view'
          ? { maxDownloads: numberOrNull(maxDownloads), allowDownload }
          : { maxFiles: numberOrNull(maxFiles), maxFileBytes: maxFileMb.trim() ? Math.round(Number(maxFileMb) * MB) : null }),
      };
      if (password) options.password = password;
      else if (removePassword) options.password = null;
      return link ? updateShareLink(link.id, options) : createShareLink({ itemType: item.type, itemId: item.id, kind, ...options });
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: shareLinkKeys.all });
      toast.success(link ? 'Link Updated' : 'Link Created');
      onSaved?.(saved);
      onClose();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <Dialog title={link ? 'Edit link' : 'New link'} onClose={onClose}>
      <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Link options">
        <p className="truncate text-sm text-muted" title={item.name}>
          {item.type === 'folder' ? 'Folder' : 'File'}: {item.name}
        </p>
        {item.type === 'folder' && !link && (
          <Field label="Visitors can">
            {(id) => (
              <select id={id} value={kind} onChange={(e) => setKind(e.target.value as ShareLinkKind)} className={inputClass}>
                <option value="view">View and download</option>
                <option value="drop">Only upload files (file drop)</option>
              </select>
            )}
          </Field>
        )}
        <Field label={link?.hasPassword ? 'New password (leave empty to keep it)' : 'Password (optional)'}>
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              minLength={SHARE_LIMITS.passwordMinLength}
              maxLength={SHARE_LIMITS.passwordMaxLength}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        {link?.hasPassword && (
          <label className="flex items-center gap-2 text-sm text-ink">
            <input type="checkbox" checked={removePassword} onChange={(e) => setRemovePassword(e.target.checked)} /> Remove the password
          </label>
        )}
        <Field label="Expires (optional)">
          {(id) => (
            <input id={id} type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} className={inputClass} />
          )}
        </Field>
        {kind === 'view' ? (
          <>
            <CountField label="Maximum downloads (optional)" value={maxDownloads} onChange={setMaxDownloads} />
            <label className="flex items-center gap-2 text-sm text-ink">
              <input type="checkbox" checked={allowDownload} onChange={(e) => setAllowDownload(e.target.checked)} /> Allow download
            </label>
          </>
        ) : (
          <>
            <CountField label="Largest file in MB (optional)" value={maxFileMb} onChange={setMaxFileMb} />
            <CountField label="Maximum number of files (optional)" value={maxFiles} onChange={setMaxFiles} />
          </>
        )}
        {save.error && (
          <p role="alert" className="text-sm text-red-600">
            {save.error.message}
          </p>
        )}
        <div className="mt-2 flex justify-end gap-2">
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {link ? 'Save' : 'Create link'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
