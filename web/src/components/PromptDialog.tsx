import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { FormError } from './FormError';

interface PromptDialogProps {
  title: string;
  label: string;
  initialValue?: string;
  submitLabel: string;
  /** The message to show instead of submitting, or null to submit. */
  validate?: (value: string) => string | null;
  /** Characters selected when the dialog opens, e.g. a file name without its extension. */
  selectLength?: number;
  onSubmit: (value: string) => void;
  onCancel: () => void;
}

/** Asks for one line of text, with an error under the field when it is refused. */
export function PromptDialog({
  title,
  label,
  initialValue = '',
  submitLabel,
  validate,
  selectLength,
  onSubmit,
  onCancel,
}: PromptDialogProps) {
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    const field = input.current;
    if (!field) return;
    field.focus();
    field.setSelectionRange(0, selectLength ?? field.value.length);
  }, [selectLength]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const message = validate?.(value) ?? null;
    setError(message);
    if (!message) onSubmit(value);
  };

  return (
    <Dialog title={title} onClose={onCancel}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <input
          id={id}
          ref={input}
          value={value}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          className="h-11 w-full rounded-lg border border-gray-300 bg-white px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20"
        />
        <FormError message={error} />
        <div className="mt-3 flex justify-end gap-2">
          <Button variant="text" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">{submitLabel}</Button>
        </div>
      </form>
    </Dialog>
  );
}
