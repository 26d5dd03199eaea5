import { ADMIN_LIMITS } from '@nimbus/common';
import { useState } from 'react';
import { useAdminUsersQuery } from '../../api/admin.api';
import { useInvitationsQuery } from '../../api/invitations.api';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { InviteDialog } from '../invitation/InviteDialog';
import { useDebouncedValue } from '../search/useDebouncedValue';
import { adminErrorMessage } from './admin-errors';
import { UsersTable, type SortState } from './UsersTable';

const PAGE = ADMIN_LIMITS.usersPageDefault;
const SEARCH_DELAY_MS = 300;

/** Every account: search, sort by column, page through; invite someone. */
export function UsersSection() {
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [sort, setSort] = useState<SortState>({ sort: 'createdAt', order: 'asc' });
  const [offset, setOffset] = useState(0);
  const [inviting, setInviting] = useState(false);
  const users = useAdminUsersQuery({ ...(settledSearch ? { search: settledSearch } : {}), ...sort, offset, limit: PAGE });
  const invitations = useInvitationsQuery();

  const needle = settledSearch.toLowerCase();
  const invited =
    offset === 0 ? (invitations.data ?? []).filter((i) => i.status === 'pending' && i.email.toLowerCase().includes(needle)) : [];
  const total = users.data?.total ?? 0;

  return (
    <div className="space-y-4 py-4">
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          label="Search accounts"
          type="search"
          placeholder="E-mail address"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setOffset(0);
          }}
          className="min-w-0 flex-1"
        />
        <Button onClick={() => setInviting(true)}>Invite</Button>
      </div>
      {users.isPending && <Spinner className="m-8 size-8" label="Loading accounts" />}
      {users.isError && <FormError message={adminErrorMessage(users.error, 'Could not load the accounts.')} />}
      {users.data && (
        <>
          <UsersTable
            users={users.data.users}
            invited={invited}
            sort={sort}
            onSort={(next) => {
              setSort(next);
              setOffset(0);
            }}
          />
          <div className="flex items-center justify-between gap-2 text-sm text-muted">
            <span>{total === 1 ? '1 account' : `${total} accounts`}</span>
            <div className="flex gap-2">
              <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </Button>
              <Button variant="secondary" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
                Next
              </Button>
            </div>
          </div>
        </>
      )}
      {inviting && <InviteDialog onClose={() => setInviting(false)} />}
    </div>
  );
}
