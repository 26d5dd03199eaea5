import { LIMITS, type MediaFilter, type SortOrder } from '@nimbus/common';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type SortBy = SortOrder;

export interface FilterState {
  sortBy: SortBy;
  limit: number;
  search: string;
  mediaFilter: MediaFilter;
}

export const filterInitialState: FilterState = { sortBy: 'date_desc', limit: LIMITS.pageSize, search: '', mediaFilter: 'all' };

export function sortByOf(byName: boolean, ascending: boolean): SortBy {
  return `${byName ? 'alp' : 'date'}_${ascending ? 'asc' : 'desc'}`;
}

export const isSortByName = (sortBy: SortBy) => sortBy.startsWith('alp_');
export const isSortAscending = (sortBy: SortBy) => sortBy.endsWith('_asc');

export const filterSlice = createSlice({
  name: 'filter',
  initialState: filterInitialState,
  reducers: {
    setSortBy(state, action: PayloadAction<SortBy>) {
      state.sortBy = action.payload;
    },
    setSearch(state, action: PayloadAction<string>) {
      state.search = action.payload;
    },
    setMediaFilter(state, action: PayloadAction<MediaFilter>) {
      state.mediaFilter = action.payload;
    },
    setLimit(state, action: PayloadAction<number>) {
      state.limit = action.payload;
    },
  },
});

export const { setSortBy, setSearch, setMediaFilter, setLimit } = filterSlice.actions;
