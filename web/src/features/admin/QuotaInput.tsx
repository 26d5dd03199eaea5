import { useId } from 'react';
import { QUOTA_UNITS, type QuotaUnit } from './quota-size';

interface QuotaInputProps {
  label: string;
  amount: string;
  unit: QuotaUnit;
  onChange: (amount: string, unit: QuotaUnit) => void;
  disabled?: boolean;
}

const control =
  'h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20 disabled:bg-gray-50';

/** A size: a number and its unit (MB or GB). */
export function QuotaInput({ label, amount, unit, onChange, disabled }: QuotaInputProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        inputMode="decimal"
        value={amount}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value, unit)}
        className={`${control} w-28`}
      />
      <label htmlFor={`${id}-unit`} className="sr-only">
        {`${label} unit`}
      </label>
      <select
        id={`${id}-unit`}
        value={unit}
        disabled={disabled}
        onChange={(event) => onChange(amount, event.target.value as QuotaUnit)}
        className={control}
      >
        {Object.keys(QUOTA_UNITS).map((name) => (
          <option key={name}>{name}</option>
        ))}
      </select>
    </div>
  );
}
