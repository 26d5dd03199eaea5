import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { driveApi } from '../../api/drive.api';
import { folderKeys } from '../../api/query-keys';
import { folderAccess, OWN_ACCESS, type ItemAccess } from './shared-access';

/** The folder a drive route shows (`/folder/{id}`), if any. */
export function openFolderIdOf(pathname: string): string | null {
  const match = /^\/folder\/([^/]+)/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/**
 * What the account may do in the folder on screen: its own folders (and the root) are its own; a folder
 * reached through a share says so in its info (the same query the breadcrumb reads, so no extra call).
 */
export function useOpenFolderAccess(): ItemAccess & { isLoading: boolean } {
  const id = openFolderIdOf(useLocation().pathname);
  const info = useQuery({
    queryKey: folderKeys.info(id ?? '/'),
    queryFn: () => driveApi.folderInfo(id!),
    enabled: id !== null,
  });
  if (!id) return { ...OWN_ACCESS, isLoading: false };
  return { ...(info.data ? folderAccess(info.data) : OWN_ACCESS), isLoading: info.isPending };
}
