import { ArrowUpIcon, GridViewIcon, ListViewIcon } from '../../components/drive-icons';
import { isSortAscending, isSortByName, setSortBy, sortByOf } from '../../state/filter.slice';
import { setListView } from '../../state/general.slice';
import { useAppDispatch, useAppSelector } from '../../state/hooks';

const toggleClass = (active: boolean) =>
  `flex h-9 w-11 items-center justify-center first:rounded-l-full last:rounded-r-full ${active ? 'bg-selected text-[#001d35]' : 'text-muted hover:bg-black/5'}`;

/** Grid or list view of files (saved as a preference). */
export function ViewToggle() {
  const dispatch = useAppDispatch();
  const listView = useAppSelector((state) => state.general.listView);
  return (
    <div role="group" aria-label="File view" className="flex rounded-full border border-gray-300">
      <button
        type="button"
        aria-label="Grid view"
        aria-pressed={!listView}
        className={toggleClass(!listView)}
        onClick={() => dispatch(setListView(false))}
      >
        <GridViewIcon className="size-5" />
      </button>
      <button
        type="button"
        aria-label="List view"
        aria-pressed={listView}
        className={toggleClass(listView)}
        onClick={() => dispatch(setListView(true))}
      >
        <ListViewIcon className="size-5" />
      </button>
    </div>
  );
}

/** Sort by Modified or Name, and the ascending/descending arrow (saved as a preference; files follow it too). */
export function SortControl() {
  const dispatch = useAppDispatch();
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const byName = isSortByName(sortBy);
  const ascending = isSortAscending(sortBy);
  return (
    <div className="flex items-center gap-1">
      <button
        type="button"
        aria-label={`Sort direction: ${ascending ? 'ascending' : 'descending'}`}
        title={ascending ? 'Ascending' : 'Descending'}
        data-ascending={ascending}
        onClick={() => dispatch(setSortBy(sortByOf(byName, !ascending)))}
        className="flex size-9 items-center justify-center rounded-full text-muted hover:bg-black/5"
      >
        <ArrowUpIcon className={`size-5 transition-transform ${ascending ? '' : 'rotate-180'}`} />
      </button>
      <select
        aria-label="Sort by"
        value={byName ? 'name' : 'date'}
        onChange={(event) => dispatch(setSortBy(sortByOf(event.target.value === 'name', ascending)))}
        className="h-9 rounded-lg bg-transparent pr-1 pl-2 text-sm font-medium text-ink hover:bg-black/5 focus:outline-2 focus:outline-primary"
      >
        <option value="date">Modified</option>
        <option value="name">Name</option>
      </select>
    </div>
  );
}
