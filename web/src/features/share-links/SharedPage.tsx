import { useQuery } from '@tanstack/react-query';
import { shareLinkKeys } from '../../api/query-keys';
import { listFileLinks, listShareLinks } from '../../api/share-links.api';
import { publicLinkOf } from '../../api/sharing.api';
import { Button } from '../../components/Button';
import { toast } from '../notifications/toast';
import { copyText } from '../popups/file-format';
import { FILE_MESSAGES } from '../popups/file-messages';
import { useChangeLink } from '../sharing/useChangeLink';
import { LinkIcon } from '../../components/file-icons';
import { Spinner } from '../../components/Spinner';
import { LinkList } from './LinkList';

/** /shared: every link the account has made, with its options, use so far, and edit and revoke. */
export function SharedPage() {
  const links = useQuery({ queryKey: shareLinkKeys.list(), queryFn: () => listShareLinks() });
  const fileLinks = useQuery({ queryKey: shareLinkKeys.fileLinks(), queryFn: listFileLinks });
  const { change, pending } = useChangeLink();
  return (
    <section aria-labelledby="shared-title" className="flex min-h-0 flex-1 flex-col overflow-y-auto px-4 pb-6">
      <h1 id="shared-title" className="py-4 text-xl font-medium text-ink">
        Shared links
      </h1>
      {links.isPending ? (
        <Spinner className="mx-auto size-10" label="Loading links" />
      ) : links.isError ? (
        <p role="alert" className="text-sm text-red-600">
          Error loading links
        </p>
      ) : links.data.length === 0 ? (
        <div className="flex flex-col items-center gap-3 py-16 text-center text-muted">
          <LinkIcon className="size-12 text-gray-300" />
          <p className="text-sm">No links yet. Select a file or folder and create a link from its details.</p>
        </div>
      ) : (
        <div className="max-w-3xl rounded-2xl bg-white px-4">
          <LinkList links={links.data} showItem />
        </div>
      )}
      {fileLinks.data && fileLinks.data.length > 0 && (
        <>
          <h2 className="pt-6 pb-2 text-base font-medium text-ink">Public and temporary file links</h2>
          <ul aria-label="File links" className="flex max-w-3xl flex-col divide-y divide-gray-100 rounded-2xl bg-white px-4">
            {fileLinks.data.map((file) => (
              <li key={file._id} className="flex flex-wrap items-center gap-2 py-3" data-testid="file-link">
                <span className="min-w-0 flex-1 truncate text-sm text-ink" title={file.filename}>
                  {file.filename}
                </span>
                <span className="text-xs text-muted">{file.metadata.linkType === 'one' ? 'Temporary' : 'Public'}</span>
                <Button
                  variant="text"
                  className="h-8 px-3"
                  aria-label={`Copy link to ${file.filename}`}
                  onClick={() => void copyText(publicLinkOf(file)).then(() => toast.success(FILE_MESSAGES.linkCopied))}
                >
                  Copy link
                </Button>
                <Button variant="text" className="h-8 px-3 text-red-600" disabled={pending} onClick={() => void change(file, 'private')}>
                  Make private
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
