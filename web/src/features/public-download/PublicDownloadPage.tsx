import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { publicKeys } from '../../api/query-keys';
import { getPublicInfo, publicDownloadUrl } from '../../api/sharing.api';
import { CenteredCard } from '../../components/CenteredCard';
import { DownloadIcon } from '../../components/file-icons';
import { WarningIcon } from '../../components/icons';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { toast } from '../notifications/toast';
import { FileDetailsBody } from '../popups/FileDetailsBody';
import { FILE_MESSAGES } from '../popups/file-messages';

const TOAST_ID = 'public-file-error';

/** /public-download/{id}/{tempToken}: a shared file's details and its Download button, signed in or not. */
export function PublicDownloadPage({ id, token }: { id: string; token: string }) {
  const info = useQuery({ queryKey: publicKeys.info(id, token), queryFn: () => getPublicInfo(id, token), retry: false, staleTime: 0 });

  useEffect(() => {
    if (info.isError) toast.error(FILE_MESSAGES.errorGettingPublicFile, { toastId: TOAST_ID });
  }, [info.isError]);

  return (
    <CenteredCard>
      <div className="flex flex-col gap-6">
        <div className="flex justify-center">
          <Logo />
        </div>
        {info.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner className="size-10" label="Loading file" />
          </div>
        ) : info.isError ? (
          <div className="flex flex-col items-center gap-3 py-6 text-center" data-testid="public-file-error">
            <WarningIcon className="size-12 text-amber-500" />
            <p className="text-base text-ink">This file is not available</p>
            <p className="text-sm text-muted">The link may have been removed, or a one-time link already used.</p>
          </div>
        ) : (
          <FileDetailsBody
            filename={info.data.filename}
            linkType={info.data.metadata.linkType}
            size={info.data.length}
            uploadDate={info.data.uploadDate}
          >
            <a
              href={publicDownloadUrl(id, token)}
              download
              className="inline-flex h-10 items-center justify-center gap-2 self-end rounded-full bg-primary px-5 text-sm font-medium text-white hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
            >
              <DownloadIcon className="size-5" /> Download
            </a>
          </FileDetailsBody>
        )}
      </div>
    </CenteredCard>
  );
}
