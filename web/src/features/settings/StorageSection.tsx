import type { StorageUsageDto } from '@nimbus/common';
import { useState } from 'react';
import { useInvitationsQuery } from '../../api/invitations.api';
import { useStorageQuery } from '../../api/storage.api';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Spinner } from '../../components/Spinner';
import { formatBytes } from '../format/format-size';
import { InvitationList } from '../invitation/InvitationList';
import { errorCodeOf } from '../invitation/invitation-errors';
import { InviteDialog } from '../invitation/InviteDialog';
import { SettingRow } from './SettingRow';

const PARTS = [
  { key: 'files', label: 'Files', color: 'bg-primary' },
  { key: 'trash', label: 'Trash', color: 'bg-amber-500' },
  { key: 'versions', label: 'Versions', color: 'bg-purple-500' },
] as const;

/** Used against the quota, split by files, trash and versions; the figure alone when there is no quota. */
function StorageBar({ usage }: { usage: StorageUsageDto }) {
  const { usedBytes, quotaBytes, bytes } = usage;
  const scale = quotaBytes && quotaBytes > 0 ? quotaBytes : Math.max(usedBytes, 1);
  const summary = quotaBytes === null ? `${formatBytes(usedBytes)} used` : `${formatBytes(usedBytes)} of ${formatBytes(quotaBytes)} used`;
  return (
    <div className="space-y-3 border-b border-gray-100 py-4">
      <p className="text-sm font-medium text-ink">{summary}</p>
      {quotaBytes === null && <p className="text-sm text-muted">No quota</p>}
      <div role="img" aria-label={`Storage: ${summary}`} className="flex h-3 overflow-hidden rounded-full bg-gray-200">
        {PARTS.map(({ key, color }) => (
          <div key={key} className={color} style={{ width: `${Math.min(100, (bytes[key] / scale) * 100)}%` }} />
        ))}
      </div>
      <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-muted">
        {PARTS.map(({ key, label, color }) => (
          <li key={key} className="flex items-center gap-2">
            <span aria-hidden="true" className={`inline-block size-2.5 rounded-full ${color}`} />
            {label}: {formatBytes(bytes[key])}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Invitations. Every account may read its own, so the row shows once the list has loaded; when
 * the server lets only administrators invite, the dialog says so (INVITE_NOT_ALLOWED). A list
 * that cannot be read hides the row rather than offering what would fail.
 */
function InvitePeople() {
  const invitations = useInvitationsQuery();
  const [inviting, setInviting] = useState(false);
  if (invitations.isPending || (invitations.isError && errorCodeOf(invitations.error) !== 'NETWORK_ERROR')) return null;
  return (
    <div>
      <SettingRow title="Invite people" description="Send someone a link to create an account on this server.">
        <Button variant="secondary" onClick={() => setInviting(true)}>
          Invite people
        </Button>
      </SettingRow>
      <InvitationList />
      {inviting && <InviteDialog onClose={() => setInviting(false)} />}
    </div>
  );
}

/** Settings → Storage: the account's use against its quota, and invitations when the account may send them. */
export function StorageSection() {
  const storage = useStorageQuery();
  return (
    <div>
      {storage.isPending && <Spinner className="m-8 size-8" label="Loading storage" />}
      {storage.isError && <FormError message="Could not load your storage use" />}
      {storage.data && <StorageBar usage={storage.data} />}
      <InvitePeople />
    </div>
  );
}
