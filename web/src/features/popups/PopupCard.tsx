import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from '../../components/icons';
import { ownsEscape } from './file-format';
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
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && ownsEscape(panel.current)) closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-4">
      <div
        data-testid="popup-backdrop"
        className={`absolute inset-0 bg-black/50 transition-opacity duration-200 ${closing ? 'opacity-0' : 'opacity-100'}`}
        onClick={onClose}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        data-testid={testId}
        className={`relative flex max-h-[92dvh] w-full flex-col overflow-y-auto rounded-t-3xl bg-white p-5 shadow-2xl outline-none sm:max-w-lg sm:rounded-3xl sm:p-6 ${slideClasses(closing)}`}
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
      </div>
    </div>,
    document.body,
  );
}
