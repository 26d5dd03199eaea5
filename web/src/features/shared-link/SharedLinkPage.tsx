import type { SharedLinkInfoDto } from '@nimbus/common';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ApiError } from '../../api/api-error';
import { sharedKeys } from '../../api/query-keys';
import { getSharedLink } from '../../api/share-links.api';
import { WarningIcon } from '../../components/icons';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { formatDateTime } from '../format/format-date';
import { DropArea } from './DropArea';
import { PasswordForm } from './PasswordForm';
import { SharedFileView } from './SharedFileView';
import { SharedFolderView } from './SharedFolderView';

function Frame({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col items-center px-4 py-8">
      <div className="mb-6">
        <Logo />
      </div>
      <main className={`w-full rounded-3xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8 ${wide ? 'max-w-5xl' : 'max-w-[460px]'}`}>
        {children}
      </main>
    </div>
  );
}

function Unavailable({ error }: { error: ApiError }) {
  const expired = error.status === 410;
  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center" role="alert">
      <WarningIcon className="size-12 text-amber-500" />
      <p className="text-base text-ink">{expired ? 'This link has expired' : 'This link is not available'}</p>
      <p className="text-sm text-muted">{expired ? error.message : 'It may have been removed, or the address is incomplete.'}</p>
    </div>
  );
}

/** /s/{token}: what a shared link shows to anyone, signed in or not. */
export function SharedLinkPage({ token }: { token: string }) {
  const info = useQuery<SharedLinkInfoDto, ApiError>({
    queryKey: sharedKeys.info(token),
    queryFn: () => getSharedLink(token),
    retry: false,
  });

  if (info.isPending)
    return (
      <Frame>
        <Spinner className="mx-auto size-10" label="Loading link" />
      </Frame>
    );
  if (info.isError)
    return (
      <Frame>
        <Unavailable error={info.error} />
      </Frame>
    );
  const link = info.data;
  if (link.passwordRequired)
    return (
      <Frame>
        <PasswordForm token={token} />
      </Frame>
    );
  const expiry = link.expiresAt && (
    <p className="mt-6 text-center text-xs text-muted">This link works until {formatDateTime(link.expiresAt)}.</p>
  );
  if (link.kind === 'drop' && link.drop)
    return (
      <Frame>
        <DropArea token={token} folderName={link.name ?? ''} limits={link.drop} />
        {expiry}
      </Frame>
    );
  if (link.folder)
    return (
      <Frame wide>
        <SharedFolderView token={token} root={link.folder} allowDownload={link.allowDownload ?? false} />
        {expiry}
      </Frame>
    );
  if (link.file)
    return (
      <Frame>
        <SharedFileView token={token} file={link.file} allowDownload={link.allowDownload ?? false} />
        {expiry}
      </Frame>
    );
  return null;
}
