import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { useAppDispatch } from '../../state/hooks';
import { requestCreateFolder } from '../../state/organize.slice';

/** New folders go into the open folder on /folder/{id}, else into the root. */
export function createFolderParentOf(pathname: string): string {
  const match = /^\/folder\/([^/]+)/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : '/';
}

/** Opens the create-folder prompt for the page on screen. */
export function useCreateFolderAction(): () => void {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  return useCallback(() => dispatch(requestCreateFolder({ parent: createFolderParentOf(pathname) })), [dispatch, pathname]);
}
