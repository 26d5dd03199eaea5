import type { Id } from 'react-toastify';
import { toast } from './toast';

const AUTO_CLOSE_MS = 3000;

export interface ProgressToast {
  success(message: string): void;
  error(message: string): void;
  dismiss(): void;
  /** Removes the toast only if it still shows the pending text. */
  dismissIfPending(): void;
}

/** A toast that starts as "working..." and turns into the outcome. */
export function progressToast(pending: string): ProgressToast {
  const id: Id = toast.loading(pending);
  let settled = false;
  const finish = (type: 'success' | 'error', render: string) => {
    settled = true;
    toast.update(id, { render, type, isLoading: false, autoClose: AUTO_CLOSE_MS, closeButton: true });
  };
  return {
    success: (message) => finish('success', message),
    error: (message) => finish('error', message),
    dismiss: () => toast.dismiss(id),
    dismissIfPending: () => {
      if (!settled) toast.dismiss(id);
    },
  };
}
