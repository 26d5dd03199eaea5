import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ROOT } from '../../api/drive.api';
import { fileKeys, folderKeys, storageKeys } from '../../api/query-keys';
import { versionsApi } from '../../api/versions.api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { RestoreIcon } from '../../components/drive-icons';
import { FormError } from '../../components/FormError';
import { toast } from '../notifications/toast';
import { restoreAsOfSummary, toLocalInput } from './version-format';

export const RESTORE_AS_OF_TEXT =
  'Every file in this folder goes back to its content at that time. Files trashed since then come back; files added since then go to the trash. Nothing is deleted.';

const HOUR_MS = 60 * 60 * 1000;

/** The folder to restore; `ROOT` for the whole drive. */
export interface RestoreTarget {
  id: string;
  name: string;
}

/**
 * "Restore as it was…": a folder (or the drive) back to a moment, for a mass overwrite (a bad sync,
 * files encrypted by ransomware). The owner's only; the server does it as one action.
 */
export function RestoreAsOfDialog({ folder, onClose }: { folder: RestoreTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [value, setValue] = useState(() => toLocalInput(new Date(Date.now() - HOUR_MS)));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) return setError('Choose a date and time');
    if (at.getTime() > Date.now()) return setError('Choose a time in the past');
    setError(null);
    setPending(true);
    try {
      const result = await versionsApi.restoreAsOf({ id: folder.id, at: at.toISOString() });
      toast.success(restoreAsOfSummary(result));
      onClose();
    } catch {
      setError(`${folder.name} could not be restored. Try again.`);
    } finally {
      setPending(false);
      void Promise.all([fileKeys.all, folderKeys.all, storageKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    }
  };

  return (
    <Dialog
      title={folder.id === ROOT ? 'Restore your drive as it was' : `Restore ${folder.name} as it was`}
      icon={<RestoreIcon className="size-8 text-primary" />}
      onClose={onClose}
      actions={
        <>
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={pending || !value} onClick={() => void submit()}>
            Confirm
          </Button>
        </>
      }
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
        <label htmlFor={inputId} className="text-sm font-medium text-ink">
          As it was at
        </label>
        <input
          id={inputId}
          type="datetime-local"
          value={value}
          max={toLocalInput(new Date())}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          className="h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20"
        />
        <p>{RESTORE_AS_OF_TEXT}</p>
        <FormError message={error} />
      </form>
    </Dialog>
  );
}

/** The whole drive's "Restore as it was…", where lost files are looked for: the trash. */
export function RestoreDriveButton() {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-3">
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <RestoreIcon className="size-5" /> Restore drive as it was…
      </Button>
      {open && <RestoreAsOfDialog folder={{ id: ROOT, name: 'Your drive' }} onClose={() => setOpen(false)} />}
    </div>
  );
}
