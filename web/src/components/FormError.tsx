import { ErrorIcon } from './icons';

/** An error shown under a form, with a red icon. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="flex items-center gap-2 text-sm text-red-600">
      <ErrorIcon className="size-5 shrink-0 text-red-600" />
      <span>{message}</span>
    </p>
  );
}
