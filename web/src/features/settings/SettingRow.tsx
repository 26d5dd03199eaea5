import type { ReactNode } from 'react';

interface SettingRowProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** One line of a settings section: what it is on the left, its control on the right. */
export function SettingRow({ title, description, children }: SettingRowProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-gray-100 py-4 last:border-b-0">
      <div className="min-w-0">
        <p className="text-sm font-medium text-ink">{title}</p>
        {description && <div className="mt-0.5 text-sm break-all text-muted">{description}</div>}
      </div>
      <div className="flex shrink-0 items-center gap-2">{children}</div>
    </div>
  );
}
