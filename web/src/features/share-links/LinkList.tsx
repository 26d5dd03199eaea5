import type { ShareLinkDto } from '@nimbus/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { shareLinkKeys } from '../../api/query-keys';
import { revokeShareLink, shareLinkUrl } from '../../api/share-links.api';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast } from '../notifications/toast';
import { copyText } from '../popups/file-format';
import { FILE_MESSAGES } from '../popups/file-messages';
import { formatDateTime } from '../format/format-date';
import { linkSummary } from './link-summary';
import { LazyLinkOptionsDialog } from './LazyLinkOptionsDialog';

/** Links with their options, each with Copy, Edit and Revoke. `showItem` names the shared item (the Shared page). */
export function LinkList({ links, showItem = false }: { links: ShareLinkDto[]; showItem?: boolean }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<ShareLinkDto | null>(null);
  const [revoking, setRevoking] = useState<ShareLinkDto | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => revokeShareLink(id),
    onSuccess: () => {
      toast.success('Link Revoked');
      void client.invalidateQueries({ queryKey: shareLinkKeys.all });
    },
    onError: () => toast.error('Error Revoking Link'),
  });

  return (
    <>
      <ul className="flex flex-col divide-y divide-gray-100" aria-label="Links">
        {links.map((link) => (
          <li key={link.id} className="flex flex-col gap-1 py-3" data-testid="share-link">
            {showItem && (
              <span className="truncate text-sm font-medium text-ink" title={link.itemName}>
                {link.itemType === 'folder' ? 'Folder' : 'File'}: {link.itemName}
              </span>
            )}
            <span className="text-xs text-muted">
              {linkSummary(link)}
              {!link.active && <strong className="ml-1 text-amber-700">· inactive</strong>}
            </span>
            <span className="text-xs text-muted">
              Created {formatDateTime(link.createdAt)}
              {link.lastAccessAt && ` · last opened ${formatDateTime(link.lastAccessAt)}`}
            </span>
            <div className="flex flex-wrap gap-1">
              <Button
                variant="text"
                className="h-8 px-3"
                aria-label={`Copy link to ${link.itemName}`}
                onClick={() => void copyText(shareLinkUrl(link)).then(() => toast.success(FILE_MESSAGES.linkCopied))}
              >
                Copy link
              </Button>
              <Button variant="text" className="h-8 px-3" aria-label={`Edit link to ${link.itemName}`} onClick={() => setEditing(link)}>
                Edit
              </Button>
              <Button
                variant="text"
                className="h-8 px-3 text-red-600"
                aria-label={`Revoke link to ${link.itemName}`}
                onClick={() => setRevoking(link)}
              >
                Revoke
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {editing && (
        <LazyLinkOptionsDialog
          item={{ type: editing.itemType, id: editing.itemId, name: editing.itemName }}
          link={editing}
          onClose={() => setEditing(null)}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke link?"
          confirmLabel="Revoke"
          danger
          text={`Anyone using this link will no longer reach “${revoking.itemName}”.`}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            revoke.mutate(revoking.id);
            setRevoking(null);
          }}
        />
      )}
    </>
  );
}
