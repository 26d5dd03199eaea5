import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
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

/** A store whose preferences start from localStorage and are written back whenever they change. */
export function createAppStore(preloadedState?: Partial<RootState>) {
  const persistence = createListenerMiddleware<RootState>();
  persistence.startListening({
    matcher: isAnyOf(setListView, setLoadThumbnailsDisabled, setSingleClickFolders),
    effect: (_action, api) => writeGeneralPreferences(api.getState().general),
  });
  persistence.startListening({
    actionCreator: setSortBy,
    effect: (action) => writeSortPreference(action.payload),
  });

  return configureStore({
    reducer: rootReducer,
    preloadedState: { general: readGeneralPreferences(), filter: readFilterPreferences(), ...preloadedState },
    middleware: (getDefault) => getDefault().prepend(persistence.middleware),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];
