import { SHARE_ROLES, type ItemShareDto, type ShareRole } from '@nimbus/common';
import { useId, useState, type FormEvent } from 'react';
import type { ShareableItem } from '../../api/item-shares.api';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { CloseIcon } from '../../components/icons';
import { ROLE_LABELS, shareErrorMessage } from './share-messages';
import { useItemShares } from './useItemShares';

const fieldClass =
  'h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/20 disabled:bg-gray-50 disabled:text-gray-400';

function RoleSelect({
  value,
  label,
  disabled,
  onChange,
}: {
  value: ShareRole;
  label: string;
  disabled?: boolean;
  onChange: (role: ShareRole) => void;
}) {
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as ShareRole)}
      className={fieldClass}
    >
      {SHARE_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  );
}

/**
 * "People with access" to an item the signed-in account owns: add someone by e-mail as Viewer or
 * Editor, change a person's role, remove them. Beside the public links, never instead of them.
 */
export function PeopleWithAccess({ item, compact = false }: { item: ShareableItem; compact?: boolean }) {
  const headingId = useId();
  const { shares, add, change, remove } = useItemShares(item);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<ShareRole>('viewer');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || add.isPending) return;
    setError(null);
    add.mutate({ email, role }, { onSuccess: () => setEmail(''), onError: (err) => setError(shareErrorMessage(err, 'add')) });
  };
  const changeRole = (share: ItemShareDto, next: ShareRole) => {
    setError(null);
    change.mutate({ id: share.id, role: next }, { onError: (err) => setError(shareErrorMessage(err, 'change')) });
  };
  const removePerson = (share: ItemShareDto) => {
    setError(null);
    remove.mutate(share.id, { onError: (err) => setError(shareErrorMessage(err, 'remove')) });
  };

  return (
    <section
      aria-labelledby={headingId}
      className={compact ? 'flex flex-col gap-2' : 'mt-6 flex flex-col gap-3'}
      data-testid="people-with-access"
    >
      {/* In the details panel the item's name is the one heading; the part is titled like its "Links". */}
      {compact ? (
        <p id={headingId} className="text-xs font-medium text-muted">
          People with access
        </p>
      ) : (
        <h3 id={headingId} className="text-sm font-medium text-ink">
          People with access
        </h3>
      )}
      <form onSubmit={submit} aria-label="Add a person" className="flex flex-wrap gap-2">
        <input
          type="email"
          aria-label="E-mail of the person to add"
          placeholder="name@example.com"
          autoComplete="off"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setError(null);
          }}
          className={`${fieldClass} min-w-0 flex-1 basis-40`}
        />
        <RoleSelect value={role} label="Role of the person to add" onChange={setRole} />
        <Button type="submit" variant="secondary" className="h-10 px-4" disabled={!email.trim() || add.isPending}>
          Add
        </Button>
      </form>
      <FormError message={error} />
      {shares.isError ? (
        <p className="text-xs text-red-600">The people with access could not be loaded.</p>
      ) : shares.data?.length === 0 ? (
        <p className="text-xs text-muted">Only you have access</p>
      ) : (
        shares.data && (
          <ul aria-label="People with access" className="flex flex-col divide-y divide-gray-100">
            {shares.data.map((share) => (
              <li key={share.id} className="flex items-center gap-2 py-2" data-testid="person-with-access">
                <span className="min-w-0 flex-1 truncate text-sm text-ink" title={share.recipient.email}>
                  {share.recipient.email}
                </span>
                <RoleSelect
                  value={share.role}
                  label={`Role of ${share.recipient.email}`}
                  disabled={change.isPending && change.variables?.id === share.id}
                  onChange={(next) => changeRole(share, next)}
                />
                <button
                  type="button"
                  aria-label={`Remove ${share.recipient.email}`}
                  title="Remove access"
                  disabled={remove.isPending && remove.variables === share.id}
                  onClick={() => removePerson(share)}
                  className="flex size-9 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5 disabled:opacity-40"
                >
                  <CloseIcon className="size-5" />
                </button>
              </li>
            ))}
          </ul>
        )
      )}
    </section>
  );
}
