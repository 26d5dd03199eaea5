import type { AccountStatus } from '@nimbus/common';

const STYLES: Record<AccountStatus, string> = {
  active: 'bg-green-100 text-green-800',
  invited: 'bg-blue-100 text-blue-800',
  disabled: 'bg-gray-200 text-gray-700',
};

const LABELS: Record<AccountStatus, string> = { active: 'Active', invited: 'Invited', disabled: 'Disabled' };

export function StatusBadge({ status }: { status: AccountStatus }) {
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${STYLES[status]}`}>{LABELS[status]}</span>;
}
