import { useId } from 'react';
import { SettingRow } from './SettingRow';

interface PreferenceSelectProps {
  title: string;
  value: boolean;
  /** Labels of the false and the true value, in the order they are listed. */
  options: readonly [falseLabel: string, trueLabel: string];
  onChange: (value: boolean) => void;
}

/** A two-way preference shown as a select; the first option is the default. */
export function PreferenceSelect({ title, value, options, onChange }: PreferenceSelectProps) {
  const id = useId();
  return (
    <SettingRow title={title}>
      <label htmlFor={id} className="sr-only">
        {title}
      </label>
      <select
        id={id}
        value={value ? 'true' : 'false'}
        onChange={(event) => onChange(event.target.value === 'true')}
        className="h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20"
      >
        <option value="false">{options[0]}</option>
        <option value="true">{options[1]}</option>
      </select>
    </SettingRow>
  );
}
