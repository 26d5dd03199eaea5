import { Button } from '../../components/Button';
import { CopyIcon } from '../../components/file-icons';
import { badgeColor, extensionBadge } from '../format/file-name';
import { toast } from '../notifications/toast';
import { copyText } from './file-format';
import { FILE_MESSAGES } from './file-messages';

/** A box with the file name and a "Copy name" button (toast "Filename Copied"). */
export function FilenameBox({ filename }: { filename: string }) {
  return (
    <div className="flex items-center gap-2 rounded-2xl border border-gray-200 bg-surface py-2 pr-2 pl-3">
      <span
        aria-hidden="true"
        style={{ background: badgeColor(filename) }}
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-[4px] text-[10px] font-semibold text-white"
      >
        {extensionBadge(filename)}
      </span>
      <span className="min-w-0 flex-1 truncate text-sm text-ink" data-testid="popup-filename" title={filename}>
        {filename}
      </span>
      <Button
        variant="text"
        className="h-9 shrink-0 px-3"
        onClick={() => void copyText(filename).then(() => toast.success(FILE_MESSAGES.filenameCopied))}
      >
        <CopyIcon className="size-4" /> Copy name
      </Button>
    </div>
  );
}
