import type { FileDto } from '@nimbus/common';
import { useMemo, useRef } from 'react';
import type { DriveItem } from '../../api/drive-items';
import { CloseIcon, PhotoIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { useInfinitePaging } from '../browser/useInfinitePaging';
import { ItemMenuExtras } from '../context-menu/item-menu-extras';
import { liveMenuEntries } from '../media/live-motion';
import { MediaItem } from '../media/MediaItem';
import { toast } from '../notifications/toast';
import type { Person } from './people.api';
import { PEOPLE_MESSAGES, removeFaceLabel } from './people-messages';
import { usePersonFaces, usePersonFiles, useRemoveFaces } from './people.queries';

/** The ids of this person's faces in each of their photos. */
function useFacesByFile(personId: string): Map<string, string[]> {
  const faces = usePersonFaces(personId);
  return useMemo(() => {
    const byFile = new Map<string, string[]>();
    for (const face of faces.data ?? []) {
      if (face.personId !== null && face.personId !== personId) continue;
      byFile.set(face.fileId, [...(byFile.get(face.fileId) ?? []), face.id]);
    }
    return byFile;
  }, [faces.data, personId]);
}

interface PhotoTileProps {
  file: FileDto;
  label: string;
  /** Absent until the person's faces have loaded. */
  onRemove?: () => void;
}

function PhotoTile({ file, label, onRemove }: PhotoTileProps) {
  return (
    <div className="group relative" data-testid="person-photo" data-file-id={file._id}>
      <MediaItem file={file} />
      {onRemove && (
        <button
          type="button"
          aria-label={`${label}: ${file.filename}`}
          title={label}
          onClick={onRemove}
          className="absolute top-1.5 right-1.5 flex h-7 items-center gap-1 rounded-full bg-black/60 px-2 text-xs font-medium text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
        >
          <CloseIcon className="size-4" />
          <span className="hidden group-hover:inline group-focus-within:inline">{label}</span>
        </button>
      )}
    </div>
  );
}

/** The person's photos in the media grid, paged as they scroll into view; each can be taken away from them. */
export function PersonPhotos({ person }: { person: Person }) {
  const list = usePersonFiles(person.id);
  const facesByFile = useFacesByFile(person.id);
  const remove = useRemoveFaces(person.id);
  const files = list.data?.pages.flatMap((page) => page.files) ?? [];
  const sentinelRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLElement>(null);
  useInfinitePaging({
    sentinelRef,
    rootRef,
    hasNextPage: list.hasNextPage,
    isFetching: list.isFetching,
    hasFailed: list.isFetchNextPageError,
    fetchNextPage: list.fetchNextPage,
    pageCount: list.data?.pages.length ?? 0,
    listKey: person.id,
  });
  const label = removeFaceLabel(person.name);
  const removeFrom = (file: FileDto, faceIds: string[]) =>
    remove.mutate(
      { fileId: file._id, faceIds },
      { onSuccess: () => toast.success(PEOPLE_MESSAGES.faceRemoved), onError: () => toast.error(PEOPLE_MESSAGES.faceNotRemoved) },
    );
  const menuEntries = (item: DriveItem) => {
    const faceIds = item.type === 'file' ? facesByFile.get(item.file._id) : undefined;
    const entries = liveMenuEntries(item);
    if (item.type !== 'file' || !faceIds) return entries;
    return [...entries, { label, icon: CloseIcon, onSelect: () => removeFrom(item.file, faceIds) }];
  };

  // The sentinel is always on the page: the paging observes it from the first render.
  return (
    <>
      {list.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-10" label="Loading photos" />
        </div>
      ) : list.isError ? (
        <p role="alert" className="py-16 text-center text-sm text-red-600">
          Error loading media
        </p>
      ) : files.length === 0 ? (
        <div className="flex flex-col items-center justify-center gap-3 py-16 text-center">
          <PhotoIcon className="size-14 text-gray-300" />
          <p className="text-base text-muted">{PEOPLE_MESSAGES.noPhotos}</p>
        </div>
      ) : (
        <div
          className="grid grid-cols-[repeat(auto-fill,minmax(104px,1fr))] gap-1 sm:grid-cols-[repeat(auto-fill,minmax(140px,1fr))]"
          data-testid="media-grid"
        >
          <ItemMenuExtras entries={menuEntries}>
            {files.map((file) => {
              const faceIds = facesByFile.get(file._id);
              return <PhotoTile key={file._id} file={file} label={label} onRemove={faceIds && (() => removeFrom(file, faceIds))} />;
            })}
          </ItemMenuExtras>
        </div>
      )}
      <div ref={sentinelRef} className="h-4 w-full" data-testid="media-sentinel" />
      {list.isFetchingNextPage && (
        <div className="flex justify-center py-4">
          <Spinner className="size-8" />
        </div>
      )}
    </>
  );
}
