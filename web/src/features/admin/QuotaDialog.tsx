import type { AdminUserDto } from '@nimbus/common';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { FormError } from '../../components/FormError';
import { QuotaInput } from './QuotaInput';
import { quotaBytesOf, quotaFieldsOf } from './quota-size';

interface QuotaDialogProps {
  user: AdminUserDto;
  busy: boolean;
  error: string | null;
  /** null: back to the server's default quota. */
  onSave: (quotaBytes: number | null) => void;
  onClose: () => void;
}

/** An account's own quota in MB or GB, or the server's default. */
export function QuotaDialog({ user, busy, error, onSave, onClose }: QuotaDialogProps) {
  const [useDefault, setUseDefault] = useState(!user.customQuota);
  const [fields, setFields] = useState(quotaFieldsOf(user.customQuota ? user.quotaBytes : null));
  const bytes = quotaBytesOf(fields.amount, fields.unit);
  const canSave = !busy && (useDefault || bytes !== null);
  return (
    <Dialog
      title={`Storage quota of ${user.email}`}
      onClose={onClose}
      actions={
        <>
          <Button variant="text" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!canSave} onClick={() => onSave(useDefault ? null : bytes)}>
            Save quota
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <label className="flex items-center gap-2 text-ink">
          <input type="radio" name="quota-kind" checked={useDefault} onChange={() => setUseDefault(true)} />
          The server&apos;s default quota
        </label>
        <label className="flex items-center gap-2 text-ink">
          <input type="radio" name="quota-kind" checked={!useDefault} onChange={() => setUseDefault(false)} />
          Its own quota
        </label>
        <QuotaInput
          label="Quota size"
          amount={fields.amount}
          unit={fields.unit}
          disabled={useDefault}
          onChange={(amount, unit) => setFields({ amount, unit })}
        />
        {!useDefault && fields.amount && bytes === null && <FormError message="Enter a size greater than zero." />}
        <FormError message={error} />
      </div>
    </Dialog>
  );
}
