import { applyMiddleware, combineReducers, legacy_createStore, type Middleware } from '@reduxjs/toolkit';
import { drawerSlice } from './drawer.slice';
import { filterSlice, setSortBy } from './filter.slice';
import { generalSlice, setListView, setLoadThumbnailsDisabled, setSingleClickFolders } from './general.slice';
import { readFilterPreferences, readGeneralPreferences, writeGeneralPreferences, writeSortPreference } from './preferences-storage';
import { organizeSlice } from './organize.slice';
import { selectionSlice } from './selection.slice';
import { uploadSlice } from './upload.slice';
import { userSlice } from './user.slice';

const rootReducer = combineReducers({
  user: userSlice.reducer,
  general: generalSlice.reducer,
  drawer: drawerSlice.reducer,
  filter: filterSlice.reducer,
  selection: selectionSlice.reducer,
  upload: uploadSlice.reducer,
  organize: organizeSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

const isGeneralPreference = (action: unknown) =>
  setListView.match(action) || setLoadThumbnailsDisabled.match(action) || setSingleClickFolders.match(action);

/** Writes the preferences back to localStorage whenever they change. */
const persistPreferences: Middleware<object, RootState> = (api) => (next) => (action) => {
  const result = next(action);
  if (isGeneralPreference(action)) writeGeneralPreferences(api.getState().general);
  if (setSortBy.match(action)) writeSortPreference(action.payload);
  return result;
};

/**
 * A store whose preferences start from localStorage and are written back whenever they change.
 * Plain Redux: the app dispatches only slice actions (no thunks), so configureStore's defaults and
 * the listener middleware would be code the page loads for nothing.
 */
export function createAppStore(preloadedState?: Partial<RootState>) {
  return legacy_createStore(
    rootReducer,
    { general: readGeneralPreferences(), filter: readFilterPreferences(), ...preloadedState },
    applyMiddleware(persistPreferences),
  );
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
