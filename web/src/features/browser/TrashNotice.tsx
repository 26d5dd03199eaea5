import { InfoIcon } from '../../components/drive-icons';

export const TRASH_NOTICE = 'Items in the trash may be automatically deleted depending on the servers settings';

export function TrashNotice() {
  return (
    <p role="note" className="mt-4 flex items-center gap-3 rounded-xl bg-[#f0f4f9] px-4 py-3 text-sm text-ink">
      <InfoIcon className="size-5 shrink-0 text-muted" />
      {TRASH_NOTICE}
    </p>
  );
}
