import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The General settings (the sort preference lives in the filter slice). */
export interface GeneralState {
  listView: boolean;
  loadThumbnailsDisabled: boolean;
  singleClickFolders: boolean;
}

export const generalInitialState: GeneralState = { listView: false, loadThumbnailsDisabled: false, singleClickFolders: false };

export const generalSlice = createSlice({
  name: 'general',
  initialState: generalInitialState,
  reducers: {
    setListView(state, action: PayloadAction<boolean>) {
      state.listView = action.payload;
    },
    setLoadThumbnailsDisabled(state, action: PayloadAction<boolean>) {
      state.loadThumbnailsDisabled = action.payload;
    },
    setSingleClickFolders(state, action: PayloadAction<boolean>) {
      state.singleClickFolders = action.payload;
    },
  },
});

export const { setListView, setLoadThumbnailsDisabled, setSingleClickFolders } = generalSlice.actions;
