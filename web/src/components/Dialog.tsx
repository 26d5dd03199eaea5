import { useId, type ReactNode } from 'react';
import { ModalShell } from './ModalShell';

interface DialogProps {
  title: string;
  onClose: () => void;
  children?: ReactNode;
  actions?: ReactNode;
  icon?: ReactNode;
}

/** A small modal dialog: title, optional icon and text, and its action buttons. */
export function Dialog({ title, onClose, children, actions, icon }: DialogProps) {
  const titleId = useId();
  return (
    <ModalShell
      onClose={onClose}
      labelledBy={titleId}
      layerClassName="fixed inset-0 z-50 flex items-center justify-center p-4"
      backdropClassName="absolute inset-0 bg-black/40"
      backdropTestId="dialog-backdrop"
      panelClassName="relative w-full max-w-md rounded-3xl bg-white p-6 shadow-2xl outline-none"
    >
      {icon && <div className="mb-3 flex justify-center">{icon}</div>}
      <h2 id={titleId} className={`text-xl font-medium text-ink ${icon ? 'text-center' : ''}`}>
        {title}
      </h2>
      {children && <div className="mt-3 text-sm text-muted">{children}</div>}
      {actions && <div className="mt-6 flex flex-wrap justify-end gap-2">{actions}</div>}
    </ModalShell>
  );
}
