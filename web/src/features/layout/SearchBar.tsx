import type { FileDto, FolderDto } from '@nimbus/common';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SearchIcon, SparkleIcon } from '../../components/icons';
import { lazyModule, useLazyModule } from '../../components/lazy-module';
import { useAppDispatch } from '../../state/hooks';
import { setPopupSelect } from '../../state/selection.slice';
import { folderPath } from '../../api/drive-items';
import type { DropdownState } from '../search/SearchResults';
import { useAiSearch, useSuggestions } from '../search/useSearchSuggestions';
import { searchPathOf, sectionOf } from './sections';
import { useTypedPlaceholder } from './useTypedPlaceholder';

// The dropdown's contents: they load once the search bar is on screen, before the first search answers.
const searchResults = lazyModule(() => import('../search/SearchResults'));

export function SearchBar() {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'names' | 'ai'>('names');
  const placeholder = useTypedPlaceholder();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const root = useRef<HTMLFormElement>(null);
  const suggestions = useSuggestions(query, section, mode === 'names');
  const ai = useAiSearch();
  const SearchResults = useLazyModule(searchResults)?.SearchResults;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  useEffect(() => setOpen(false), [pathname]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setOpen(false);
    void navigate(searchPathOf(section, query));
  };

  const runAi = () => {
    const text = query.trim();
    if (!text || !ai.available) return;
    setMode('ai');
    setOpen(true);
    ai.mutate(text);
  };

  const openFolder = (folder: FolderDto) => {
    setOpen(false);
    void navigate(folderPath(folder._id, section === 'trash'));
  };
  const openFile = (file: FileDto) => {
    setOpen(false);
    dispatch(setPopupSelect({ type: 'file', file }));
  };

  let dropdown: DropdownState | null = null;
  if (mode === 'ai') {
    dropdown = ai.isPending
      ? { kind: 'ai-thinking' }
      : { kind: 'ai', folders: ai.isSuccess ? ai.data.folders : [], files: ai.isSuccess ? ai.data.files : [] };
  } else if (query.trim() && suggestions.search) {
    const data = suggestions.data;
    dropdown = {
      kind: 'names',
      loading: !data && suggestions.isFetching,
      folders: data?.folderList ?? [],
      files: data?.fileList ?? [],
    };
  }

  return (
    <form
      ref={root}
      role="search"
      onSubmit={onSubmit}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
        }
      }}
      className="relative flex h-12 w-full max-w-3xl items-center rounded-full bg-[#e9eef6] focus-within:bg-white focus-within:shadow-md"
    >
      <button
        type="submit"
        aria-label="Search"
        className="ml-1 flex size-10 shrink-0 items-center justify-center rounded-full text-muted hover:bg-black/5"
      >
        <SearchIcon className="size-6" />
      </button>
      <input
        type="search"
        aria-label="Search files and folders"
        aria-expanded={open && dropdown !== null}
        aria-controls="search-dropdown"
        autoComplete="off"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setMode('names');
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        placeholder={placeholder}
        className="h-full min-w-0 flex-1 bg-transparent pr-2 text-base text-ink outline-none placeholder:text-muted [&::-webkit-search-cancel-button]:hidden"
      />
      {/* The "AI" (semantic search) button. */}
      <div data-slot="ai-search" className="mr-1.5 flex shrink-0 items-center">
        <button
          type="button"
          aria-label="AI search"
          title="AI search"
          disabled={!ai.available || !query.trim()}
          onClick={runAi}
          className="flex h-9 items-center gap-1 rounded-full px-3 text-sm font-semibold text-primary enabled:hover:bg-blue-50 disabled:text-gray-400"
        >
          <SparkleIcon className="size-4" />
          AI
        </button>
      </div>
      {open && dropdown && SearchResults && (
        <div
          id="search-dropdown"
          data-testid="search-dropdown"
          className="absolute top-full right-0 left-0 z-40 mt-1 max-h-[400px] overflow-y-auto rounded-2xl bg-white py-2 shadow-xl ring-1 ring-black/5"
        >
          <SearchResults state={dropdown} onFolder={openFolder} onFile={openFile} />
        </div>
      )}
    </form>
  );
}
