import type { FileDto, FolderDto } from '@nimbus/common';
import { FolderIcon } from '../../components/icons';
import { Spinner } from '../../components/Spinner';
import { SparkleIcon } from '../../components/icons';
import { ExtensionBadge } from '../browser/FileThumbnail';
import { SharedBadge } from '../browser/SharedBadge';
import { SEARCH_MESSAGES } from './messages';

export type DropdownState =
  | { kind: 'names'; loading: boolean; folders: FolderDto[]; files: FileDto[] }
  | { kind: 'ai-thinking' }
  | { kind: 'ai'; folders: FolderDto[]; files: FileDto[] };

interface SearchResultsProps {
  state: DropdownState;
  onFolder: (folder: FolderDto) => void;
  onFile: (file: FileDto) => void;
}

const rowClass =
  'flex h-11 w-full cursor-pointer items-center gap-3 px-4 text-left text-sm text-ink hover:bg-black/5 focus:bg-black/5 focus:outline-none';

function Results({ folders, files, onFolder, onFile }: { folders: FolderDto[]; files: FileDto[] } & Omit<SearchResultsProps, 'state'>) {
  return (
    <div role="listbox" aria-label="Search results">
      {folders.map((folder) => (
        <div
          key={`folder:${folder._id}`}
          role="option"
          aria-selected={false}
          tabIndex={-1}
          className={rowClass}
          onClick={() => onFolder(folder)}
        >
          <FolderIcon className="size-6 shrink-0 text-muted" />
          <span className="truncate">{folder.name}</span>
          {folder.shared && <SharedBadge />}
        </div>
      ))}
      {files.map((file) => (
        <div key={`file:${file._id}`} role="option" aria-selected={false} tabIndex={-1} className={rowClass} onClick={() => onFile(file)}>
          <ExtensionBadge filename={file.filename} compact />
          <span className="truncate">{file.filename}</span>
          {file.shared && <SharedBadge />}
        </div>
      ))}
    </div>
  );
}

/** The dropdown under the search bar: folders first, then files; or the AI search's progress and best matches. */
export function SearchResults({ state, onFolder, onFile }: SearchResultsProps) {
  if (state.kind === 'ai-thinking') {
    return (
      <div role="status" className="flex items-center gap-3 px-4 py-4">
        <Spinner className="size-6" label={SEARCH_MESSAGES.thinking} />
        <div>
          <p className="text-sm font-medium text-ink">{SEARCH_MESSAGES.thinking}</p>
          <p className="text-xs text-muted">{SEARCH_MESSAGES.analyzing}</p>
        </div>
      </div>
    );
  }
  if (state.kind === 'ai') {
    if (state.folders.length === 0 && state.files.length === 0) {
      return <p className="px-4 py-4 text-sm text-muted">{SEARCH_MESSAGES.noAiResults}</p>;
    }
    return (
      <>
        <p className="flex items-center gap-2 px-4 pt-3 pb-1 text-xs font-medium text-primary">
          <SparkleIcon className="size-4" />
          {SEARCH_MESSAGES.bestMatches}
        </p>
        <Results folders={state.folders} files={state.files} onFolder={onFolder} onFile={onFile} />
      </>
    );
  }
  if (state.loading) {
    return (
      <div className="flex justify-center py-4">
        <Spinner className="size-6" label="Searching" />
      </div>
    );
  }
  if (state.folders.length === 0 && state.files.length === 0) {
    return <p className="px-4 py-4 text-sm text-muted">{SEARCH_MESSAGES.noResults}</p>;
  }
  return <Results folders={state.folders} files={state.files} onFolder={onFolder} onFile={onFile} />;
}
