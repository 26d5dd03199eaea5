import { Button } from './Button';
import { Dialog } from './Dialog';
import { WarningIcon } from './icons';

interface MessageDialogProps {
  title: string;
  text?: string;
  buttonLabel?: string;
  onClose: () => void;
}

/** A warning with a single acknowledgement button. */
export function MessageDialog({ title, text, buttonLabel = 'Okay', onClose }: MessageDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      icon={<WarningIcon className="size-10 text-amber-500" />}
      actions={
        <Button onClick={onClose} className="w-full">
          {buttonLabel}
        </Button>
      }
    >
      {text}
    </Dialog>
  );
}
