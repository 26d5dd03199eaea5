import type { AdminUserDto, AdminUserSort, InvitationDto } from '@nimbus/common';
import type { ReactNode } from 'react';
import { formatDay } from '../format/format-date';
import { StatusBadge } from './StatusBadge';
import { UsageBar } from './UsageBar';
import { UserActions } from './UserActions';

export interface SortState {
  sort: AdminUserSort;
  order: 'asc' | 'desc';
}

const COLUMNS: { label: string; sort?: AdminUserSort }[] = [
  { label: 'E-mail', sort: 'email' },
  { label: 'Created', sort: 'createdAt' },
  { label: 'Last active', sort: 'lastActiveAt' },
  { label: 'Storage', sort: 'usedBytes' },
  { label: 'Files', sort: 'files' },
  { label: 'Status' },
  { label: 'Two-factor' },
];

const cell = 'px-3 py-2 align-middle';

function SortHeader({
  label,
  sort,
  state,
  onSort,
}: {
  label: string;
  sort: AdminUserSort;
  state: SortState;
  onSort: (s: SortState) => void;
}) {
  const active = state.sort === sort;
  const next: SortState = { sort, order: active && state.order === 'asc' ? 'desc' : 'asc' };
  return (
    <th scope="col" aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none'} className={`${cell} font-medium`}>
      <button type="button" className="inline-flex items-center gap-1 hover:text-ink" onClick={() => onSort(next)}>
        {label}
        <span aria-hidden="true">{active ? (state.order === 'asc' ? '▲' : '▼') : ''}</span>
      </button>
    </th>
  );
}

function Row({ cells }: { cells: ReactNode[] }) {
  return (
    <tr className="border-t border-gray-100">
      {cells.map((content, index) => (
        <td key={index} className={cell}>
          {content}
        </td>
      ))}
    </tr>
  );
}

interface UsersTableProps {
  users: AdminUserDto[];
  invited: InvitationDto[];
  sort: SortState;
  onSort: (sort: SortState) => void;
}

/** Accounts, one row each, with pending invitations on top as `invited` rows. */
export function UsersTable({ users, invited, sort, onSort }: UsersTableProps) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Accounts" className="w-full text-left text-sm text-ink">
        <thead className="text-muted">
          <tr>
            {COLUMNS.map((column) =>
              column.sort ? (
                <SortHeader key={column.label} label={column.label} sort={column.sort} state={sort} onSort={onSort} />
              ) : (
                <th key={column.label} scope="col" className={`${cell} font-medium`}>
                  {column.label}
                </th>
              ),
            )}
            <th scope="col" className={cell}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invited.map((invitation) => (
            <Row
              key={`invitation-${invitation.id}`}
              cells={[
                <span className="break-all">{invitation.email}</span>,
                formatDay(invitation.createdAt),
                '—',
                '—',
                '—',
                <StatusBadge status="invited" />,
                '—',
                null,
              ]}
            />
          ))}
          {users.map((user) => (
            <Row
              key={user.id}
              cells={[
                <span className="break-all">
                  {user.email}
                  {user.role === 'admin' && <span className="ml-2 text-xs text-muted">Administrator</span>}
                </span>,
                formatDay(user.createdAt),
                user.lastActiveAt ? formatDay(user.lastActiveAt) : 'Never',
                <UsageBar used={user.usedBytes} quota={user.quotaBytes} />,
                user.files,
                <StatusBadge status={user.status} />,
                user.twoFactor ? 'On' : 'Off',
                <UserActions user={user} />,
              ]}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
