import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SearchIcon } from '../../components/icons';
import { searchPathOf, sectionOf } from './sections';
import { useTypedPlaceholder } from './useTypedPlaceholder';

export function SearchBar() {
  const [query, setQuery] = useState('');
  const placeholder = useTypedPlaceholder();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void navigate(searchPathOf(sectionOf(pathname), query));
  };

  return (
    <form
      role="search"
      onSubmit={onSubmit}
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
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={placeholder}
        className="h-full min-w-0 flex-1 bg-transparent pr-2 text-base text-ink outline-none placeholder:text-muted [&::-webkit-search-cancel-button]:hidden"
      />
      {/* Slot of the "AI" (semantic search) button and the results dropdown, added with the search feature. */}
      <div data-slot="ai-search" className="mr-2 flex shrink-0 items-center" />
    </form>
  );
}
