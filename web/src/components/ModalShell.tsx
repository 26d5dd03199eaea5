import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useFocusTrap, type FocusTrapOptions } from './useFocusTrap';

/** True when `element` is the topmost dialog and no menu is open: Escape is its to handle. */
export function ownsEscape(element: Element | null): boolean {
  if (!element || document.querySelector('[role="menu"]')) return false;
  const dialogs = document.querySelectorAll('[role="dialog"]');
  return dialogs[dialogs.length - 1] === element;
}

interface ModalShellProps {
  onClose: () => void;
  /** The accessible name: a visible heading's id, or a label. */
  labelledBy?: string;
  label?: string;
  initialFocus?: FocusTrapOptions['initialFocus'];
  /** Outer layer (positions the panel), the dimmed backdrop, and the panel itself. */
  layerClassName: string;
  backdropClassName: string;
  panelClassName: string;
  backdropTestId?: string;
  testId?: string;
  children: ReactNode;
}

/**
 * Every modal of the app: a portal over a backdrop that closes it, Escape for the topmost one,
 * focus moved inside, kept inside (Tab wraps) and given back to the opener on close.
 */
export function ModalShell(props: ModalShellProps) {
  const { onClose, labelledBy, label, initialFocus, children } = props;
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useFocusTrap(panel, { initialFocus });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && ownsEscape(panel.current)) closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return createPortal(
    <div className={props.layerClassName}>
      <div className={props.backdropClassName} onClick={onClose} data-testid={props.backdropTestId} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-label={labelledBy ? undefined : label}
        tabIndex={-1}
        data-testid={props.testId}
        className={props.panelClassName}
      >
        {children}
      </div>
    </div>,
    document.body,
  );
}
