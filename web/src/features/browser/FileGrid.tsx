import type { FileDto } from '@nimbus/common';
import type { RefObject } from 'react';
import { VirtualGrid } from '../../components/VirtualGrid';
import { FILE_CARD_HEIGHT, FileCard } from './FileCard';
import { FILE_ROW_HEIGHT, FileListHeader, FileRow } from './FileRow';

export const GRID_GAP = 12;
/** Cards are at least 190 px wide, or 150 px where that would leave a phone with one column. */
export const gridMinColumn = (gridWidth: number) => (gridWidth < 560 ? 150 : 190);

interface FileGridProps {
  files: FileDto[];
  listView: boolean;
  scrollRef: RefObject<HTMLElement | null>;
  /** Show a "Shared" badge on files of other accounts. */
  markShared?: boolean;
  /** The line under a file's name, instead of its upload date. */
  subtitleOf?: (file: FileDto) => string | undefined;
}

/** Files as virtualised cards, or as rows under a header in list view. */
export function FileGrid({ files, listView, scrollRef, markShared = false, subtitleOf }: FileGridProps) {
  if (listView) {
    return (
      <div role="grid" aria-label="Files" aria-multiselectable="true">
        <FileListHeader />
        <VirtualGrid
          role="rowgroup"
          count={files.length}
          scrollRef={scrollRef}
          rowHeight={FILE_ROW_HEIGHT}
          renderItem={(index) => (
            <FileRow key={files[index]!._id} file={files[index]!} markShared={markShared} subtitle={subtitleOf?.(files[index]!)} />
          )}
        />
      </div>
    );
  }
  return (
    <VirtualGrid
      role="listbox"
      label="Files"
      multiselectable
      count={files.length}
      scrollRef={scrollRef}
      rowHeight={FILE_CARD_HEIGHT + GRID_GAP}
      minColumnWidth={gridMinColumn}
      gap={GRID_GAP}
      renderItem={(index) => (
        <FileCard key={files[index]!._id} file={files[index]!} markShared={markShared} subtitle={subtitleOf?.(files[index]!)} />
      )}
    />
  );
}
