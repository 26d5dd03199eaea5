import type { ReactNode } from 'react';
import { CloseIcon } from '../../components/icons';
import { ModalShell } from '../../components/ModalShell';
import { slideClasses } from './useSlideClose';

interface PopupCardProps {
  title: string;
  closing: boolean;
  onClose: () => void;
  /** Extra buttons in the header, before the close button. */
  headerActions?: ReactNode;
  children: ReactNode;
  testId?: string;
}

/** A centred popup card over a dimmed backdrop that closes it; slides out when closing. */
export function PopupCard({ title, closing, onClose, headerActions, children, testId }: PopupCardProps) {
  return (
    <ModalShell
      onClose={onClose}
      label={title}
      initialFocus="container"
      testId={testId}
      layerClassName="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-4"
      backdropClassName={`absolute inset-0 bg-black/50 transition-opacity duration-200 ${closing ? 'opacity-0' : 'opacity-100'}`}
      backdropTestId="popup-backdrop"
      panelClassName={`relative flex max-h-[92dvh] w-full flex-col overflow-y-auto rounded-t-3xl bg-white p-5 shadow-2xl outline-none sm:max-w-lg sm:rounded-3xl sm:p-6 ${slideClasses(closing)}`}
    >
      <div className="mb-4 flex items-center gap-2">
        <h2 className="min-w-0 flex-1 truncate text-xl font-medium text-ink">{title}</h2>
        {headerActions}
        <button
          type="button"
          aria-label="Close"
          onClick={onClose}
          className="flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
        >
          <CloseIcon className="size-6" />
        </button>
      </div>
      {children}
    </ModalShell>
  );
}
