import type { SharedFileDto, SharedFolderDto } from '@nimbus/common';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { sharedKeys } from '../../api/query-keys';
import { listSharedFolder, sharedUrls } from '../../api/share-links.api';
import { Button } from '../../components/Button';
import { FileIcon } from '../../components/drive-icons';
import { DownloadIcon, PlayIcon } from '../../components/file-icons';
import { FolderIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { formatDay } from '../format/format-date';
import { formatBytes } from '../format/format-size';
import { SharedPreview } from './SharedPreview';

type Layout = 'grid' | 'list';
const SECTION_LAYOUT: Record<Layout, string> = {
  grid: 'grid grid-cols-[repeat(auto-fill,minmax(180px,1fr))] gap-3',
  list: 'flex flex-col',
};

/** A shared folder as its visitor browses it: never above the shared folder, never the trash. */
export function SharedFolderView({ token, root, allowDownload }: { token: string; root: SharedFolderDto; allowDownload: boolean }) {
  const [params, setParams] = useSearchParams();
  const folderId = params.get('folder');
  const [layout, setLayout] = useState<Layout>('grid');
  const [previewing, setPreviewing] = useState<number | null>(null);
  const listing = useInfiniteQuery({
    queryKey: sharedKeys.listing(token, folderId),
    queryFn: ({ pageParam }) => listSharedFolder(token, folderId ?? undefined, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    retry: false,
  });
  const open = (folder: SharedFolderDto) => {
    setPreviewing(null);
    setParams(folder.id === root.id ? {} : { folder: folder.id });
  };

  if (listing.isPending) return <Spinner className="mx-auto size-10" label="Loading folder" />;
  if (listing.isError)
    return (
      <p role="alert" className="text-center text-sm text-muted">
        This folder is not available.
      </p>
    );
  const first = listing.data.pages[0]!;
  const folders = first.folders;
  const files = listing.data.pages.flatMap((p) => p.files);
  const previewable = files.filter((f) => f.isImage || f.isVideo);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <nav aria-label="Folder path" className="flex min-w-0 flex-1 basis-full flex-wrap items-center gap-1 text-sm sm:basis-0">
          {first.path.map((folder, i) => (
            <span key={folder.id} className="flex items-center gap-1">
              {i > 0 && <span className="text-muted">/</span>}
              {i === first.path.length - 1 ? (
                <span aria-current="page" className="font-medium text-ink">
                  {folder.name}
                </span>
              ) : (
                <button type="button" className="text-primary hover:underline" onClick={() => open(folder)}>
                  {folder.name}
                </button>
              )}
            </span>
          ))}
        </nav>
        <div role="group" aria-label="Layout" className="flex rounded-full border border-gray-300">
          {(['grid', 'list'] as const).map((l) => (
            <button
              key={l}
              type="button"
              aria-pressed={layout === l}
              onClick={() => setLayout(l)}
              className={`h-9 px-4 text-sm capitalize first:rounded-l-full last:rounded-r-full ${layout === l ? 'bg-selected font-medium' : ''}`}
            >
              {l}
            </button>
          ))}
        </div>
        {allowDownload && (
          <a
            href={sharedUrls.zip(token, folderId ?? undefined)}
            download
            className="inline-flex h-10 items-center gap-2 rounded-full bg-primary px-5 text-sm font-medium text-white hover:bg-primary-hover"
          >
            <DownloadIcon className="size-5" /> Download all
          </a>
        )}
      </div>

      {folders.length === 0 && files.length === 0 && <p className="py-10 text-center text-sm text-muted">This folder is empty</p>}

      {folders.length > 0 && (
        <section aria-label="Folders" className={SECTION_LAYOUT[layout]}>
          {folders.map((folder) => (
            <button
              key={folder.id}
              type="button"
              onClick={() => open(folder)}
              className={`flex items-center gap-3 text-left text-sm text-ink hover:bg-black/5 ${layout === 'grid' ? 'h-12 rounded-xl bg-surface px-4' : 'h-11 border-b border-gray-100 px-2'}`}
            >
              <FolderIcon className="size-5 shrink-0 text-muted" />
              <span className="truncate">{folder.name}</span>
            </button>
          ))}
        </section>
      )}

      {files.length > 0 && (
        <section aria-label="Files" className={SECTION_LAYOUT[layout]}>
          {files.map((file) => (
            <SharedFileItem
              key={file.id}
              token={token}
              file={file}
              layout={layout}
              allowDownload={allowDownload}
              onOpen={file.isImage || file.isVideo ? () => setPreviewing(previewable.indexOf(file)) : undefined}
            />
          ))}
        </section>
      )}

      {listing.hasNextPage && (
        <Button
          variant="secondary"
          className="self-center"
          disabled={listing.isFetchingNextPage}
          onClick={() => void listing.fetchNextPage()}
        >
          Show more
        </Button>
      )}

      {previewing !== null && previewable[previewing] && (
        <SharedPreview
          token={token}
          files={previewable}
          index={previewing}
          allowDownload={allowDownload}
          onMove={setPreviewing}
          onClose={() => setPreviewing(null)}
        />
      )}
    </div>
  );
}

interface ItemProps {
  token: string;
  file: SharedFileDto;
  layout: Layout;
  allowDownload: boolean;
  onOpen?: () => void;
}

export function SharedFileItem({ token, file, layout, allowDownload, onOpen }: ItemProps) {
  const picture = file.hasThumbnail ? (
    <img src={sharedUrls.thumbnail(token, file.id)} alt="" loading="lazy" className="size-full object-cover" />
  ) : (
    <FileIcon className="size-10 text-gray-400" />
  );
  const download = allowDownload && (
    <a
      href={sharedUrls.download(token, file.id)}
      download
      aria-label={`Download ${file.filename}`}
      className="flex size-9 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
    >
      <DownloadIcon className="size-5" />
    </a>
  );
  if (layout === 'list')
    return (
      <div className="flex h-12 items-center gap-3 border-b border-gray-100 px-2 text-sm" data-testid="shared-file">
        <button type="button" disabled={!onOpen} onClick={onOpen} className="flex min-w-0 flex-1 items-center gap-3 text-left">
          <span className="flex size-8 shrink-0 items-center justify-center overflow-hidden rounded">{picture}</span>
          <span className="truncate text-ink">{file.filename}</span>
        </button>
        <span className="hidden w-28 text-muted sm:block">{formatDay(file.uploadDate)}</span>
        <span className="w-20 text-right text-muted">{formatBytes(file.size)}</span>
        {download}
      </div>
    );
  return (
    <div className="flex flex-col overflow-hidden rounded-xl bg-surface" data-testid="shared-file">
      <button
        type="button"
        disabled={!onOpen}
        onClick={onOpen}
        aria-label={onOpen ? `Open ${file.filename}` : undefined}
        className="relative flex h-36 items-center justify-center overflow-hidden bg-white"
      >
        {picture}
        {file.isVideo && <PlayIcon className="absolute size-10 rounded-full bg-black/50 p-2 text-white" />}
      </button>
      <div className="flex items-center gap-2 px-3 py-2">
        <span className="min-w-0 flex-1 truncate text-sm text-ink" title={file.filename}>
          {file.filename}
        </span>
        {download}
      </div>
    </div>
  );
}
