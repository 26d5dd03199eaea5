import type { SharedItemType } from '@nimbus/common';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { shareLinkKeys } from '../../api/query-keys';
import { getDropOrigin, listShareLinks } from '../../api/share-links.api';
import { Button } from '../../components/Button';
import { formatDateTime } from '../format/format-date';
import { LinkList } from './LinkList';
import { LazyLinkOptionsDialog } from './LazyLinkOptionsDialog';

/** The detail panel's part about links: the item's links, "Create link", and for a dropped file who sent it. */
export function ItemLinks({ item }: { item: { type: SharedItemType; id: string; name: string } }) {
  const [creating, setCreating] = useState(false);
  const links = useQuery({ queryKey: shareLinkKeys.list(item.id), queryFn: () => listShareLinks(item.id) });
  const origin = useQuery({
    queryKey: shareLinkKeys.dropOrigin(item.id),
    queryFn: () => getDropOrigin(item.id),
    enabled: item.type === 'file',
  });
  return (
    <div className="mt-6 flex flex-col gap-2 border-t border-gray-100 pt-4" data-testid="item-links">
      {origin.data && (
        <p className="text-xs text-muted">
          Received through a link{origin.data.uploaderName ? ` from ${origin.data.uploaderName}` : ''} on{' '}
          {formatDateTime(origin.data.uploadedAt)}
        </p>
      )}
      <div className="flex items-center justify-between">
        <p className="text-xs font-medium text-muted">Links</p>
        <Button variant="text" className="h-8 px-3" onClick={() => setCreating(true)}>
          Create link
        </Button>
      </div>
      {links.data && links.data.length > 0 && <LinkList links={links.data} />}
      {links.data?.length === 0 && <p className="text-xs text-muted">No links</p>}
      {creating && <LazyLinkOptionsDialog item={item} onClose={() => setCreating(false)} />}
    </div>
  );
}
