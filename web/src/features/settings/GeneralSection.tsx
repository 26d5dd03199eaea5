import { isSortAscending, isSortByName, setSortBy, sortByOf } from '../../state/filter.slice';
import { setListView, setLoadThumbnailsDisabled, setSingleClickFolders } from '../../state/general.slice';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { PreferenceSelect } from './PreferenceSelect';

/** The five general preferences; the store writes each to its localStorage key. */
export function GeneralSection() {
  const dispatch = useAppDispatch();
  const general = useAppSelector((state) => state.general);
  const sortBy = useAppSelector((state) => state.filter.sortBy);
  const byName = isSortByName(sortBy);
  const ascending = isSortAscending(sortBy);

  return (
    <div>
      <PreferenceSelect
        title="File list style"
        value={general.listView}
        options={['Grid', 'List']}
        onChange={(v) => dispatch(setListView(v))}
      />
      <PreferenceSelect
        title="Sort by"
        value={byName}
        options={['Date', 'Name']}
        onChange={(v) => dispatch(setSortBy(sortByOf(v, ascending)))}
      />
      <PreferenceSelect
        title="Order by"
        value={ascending}
        options={['Descending', 'Ascending']}
        onChange={(v) => dispatch(setSortBy(sortByOf(byName, v)))}
      />
      <PreferenceSelect
        title="Single click to enter folders"
        value={general.singleClickFolders}
        options={['Disabled', 'Enabled']}
        onChange={(v) => dispatch(setSingleClickFolders(v))}
      />
      <PreferenceSelect
        title="Load thumbnails"
        value={general.loadThumbnailsDisabled}
        options={['Enabled', 'Disabled']}
        onChange={(v) => dispatch(setLoadThumbnailsDisabled(v))}
      />
    </div>
  );
}
