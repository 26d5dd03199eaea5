import type { FileDto, FolderDto } from '@nimbus/common';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '../../state/hooks';
import { setPopupSelect } from '../../state/selection.slice';
import { sectionOf } from '../layout/sections';
import { folderPath } from '../../api/drive-items';

/** Opening an item: a file shows its preview or details popup, a folder opens its page (in the trash when there). */
export function useOpenItem() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const inTrash = sectionOf(useLocation().pathname) === 'trash';
  const openFile = useCallback(
    (file: FileDto, quick = false) => dispatch(setPopupSelect({ type: quick ? 'quick-item' : 'file', file })),
    [dispatch],
  );
  const openFolder = useCallback((folder: FolderDto) => void navigate(folderPath(folder._id, inTrash)), [navigate, inTrash]);
  return { openFile, openFolder };
}
