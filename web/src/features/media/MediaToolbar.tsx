import type { MediaFilter } from '@nimbus/common';
import { Link } from 'react-router';
import { ArrowDownwardIcon, ArrowUpwardIcon } from '../../components/file-icons';
import { PeopleIcon } from '../../components/icons';

const FILTERS: { value: MediaFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'photos', label: 'Photos' },
  { value: 'videos', label: 'Videos' },
];

interface MediaToolbarProps {
  filter: MediaFilter;
  ascending: boolean;
  onFilter: (filter: MediaFilter) => void;
  onToggleOrder: () => void;
}

/** The way to People, the All/Photos/Videos filter and the sort-direction arrow. */
export function MediaToolbar({ filter, ascending, onFilter, onToggleOrder }: MediaToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Link
        to="/people"
        className="flex h-9 items-center gap-1.5 rounded-full border border-gray-300 px-3.5 text-sm font-medium text-ink hover:bg-black/5"
      >
        <PeopleIcon className="size-5 text-muted" />
        People
      </Link>
      <div role="group" aria-label="Media filter" className="flex rounded-full border border-gray-300 p-0.5">
        {FILTERS.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            aria-pressed={filter === value}
            onClick={() => onFilter(value)}
            className={`h-8 rounded-full px-3.5 text-sm font-medium transition-colors ${filter === value ? 'bg-selected text-[#001d35]' : 'text-muted hover:bg-black/5'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <button
        type="button"
        aria-label={ascending ? 'Sort descending' : 'Sort ascending'}
        title={ascending ? 'Oldest first' : 'Newest first'}
        data-order={ascending ? 'asc' : 'desc'}
        onClick={onToggleOrder}
        className="flex size-9 items-center justify-center rounded-full text-muted hover:bg-black/5"
      >
        {ascending ? <ArrowUpwardIcon className="size-5" /> : <ArrowDownwardIcon className="size-5" />}
      </button>
    </div>
  );
}
