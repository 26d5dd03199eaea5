import { LIMITS, type FileDto } from '@nimbus/common';
import { keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { fileKeys, folderKeys } from '../../api/query-keys';
import { useAppSelector } from '../../state/hooks';
import { driveApi, ROOT, type FileCursor } from '../../api/drive.api';
import { nextFileCursor } from './paging';

/** Where a browser page looks: a folder (or the root), a name search, in the drive or in the trash. */
export interface BrowseScope {
  parent: string;
  search: string;
  trashMode: boolean;
}

export function useFileListQuery(scope: BrowseScope) {
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const limit = useAppSelector((state) => state.filter.limit) || LIMITS.pageSize;
  const params = { parent: scope.parent, search: scope.search, trashMode: scope.trashMode, sortBy, limit };
  return useInfiniteQuery<
    FileDto[],
    Error,
    InfiniteData<FileDto[], FileCursor | null>,
    ReturnType<typeof fileKeys.list>,
    FileCursor | null
  >({
    queryKey: fileKeys.list(params),
    queryFn: ({ pageParam }) => driveApi.listFiles(params, pageParam ?? undefined),
    initialPageParam: null,
    getNextPageParam: (_last, pages) => nextFileCursor(pages, limit),
    // A new sort order keeps the current list on screen until the reordered one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useFolderListQuery(scope: BrowseScope) {
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const params = { parent: scope.parent, search: scope.search, trashMode: scope.trashMode, sortBy };
  return useQuery({ queryKey: folderKeys.list(params), queryFn: () => driveApi.listFolders(params), placeholderData: keepPreviousData });
}

export function useQuickListQuery(enabled: boolean) {
  return useQuery({ queryKey: fileKeys.quickList(), queryFn: () => driveApi.quickList(LIMITS.quickListSize), enabled });
}

export function useFolderInfoQuery(id: string | undefined) {
  return useQuery({
    queryKey: folderKeys.info(id ?? ROOT),
    queryFn: () => driveApi.folderInfo(id!),
    enabled: !!id && id !== ROOT,
  });
}
