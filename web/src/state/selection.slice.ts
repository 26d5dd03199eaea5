import type { FileDto, FolderDto } from '@nimbus/common';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

type FileRef = FileDto;
type FolderRef = FolderDto;

export type SelectionType = 'file' | 'folder' | 'quick-item';
export type ItemType = 'file' | 'folder';

export interface MainSection {
  type: SelectionType | '';
  id: string;
  file: FileRef | null;
  folder: FolderRef | null;
}
export interface MultiSelectItem {
  id: string;
  type: ItemType;
}

export interface SelectionState {
  mainSection: MainSection;
  popupModal: { type: SelectionType | ''; file: FileRef | null };
  multiSelectMode: boolean;
  multiSelectMap: Record<string, MultiSelectItem>;
  multiSelectCount: number;
  shareModal: { file: FileRef | null };
  moveModal: { type: ItemType | 'multi' | ''; file: FileRef | null; folder: FolderRef | null };
  navigationMap: Record<string, { url: string; scrollTop: number }>;
}

const emptyMain: MainSection = { type: '', id: '', file: null, folder: null };

export const selectionInitialState: SelectionState = {
  mainSection: emptyMain,
  popupModal: { type: '', file: null },
  multiSelectMode: false,
  multiSelectMap: {},
  multiSelectCount: 0,
  shareModal: { file: null },
  moveModal: { type: '', file: null, folder: null },
  navigationMap: {},
};

function toggleItem(map: Record<string, MultiSelectItem>, item: MultiSelectItem): void {
  const existing = map[item.id];
  if (existing && existing.type === item.type) delete map[item.id];
  else map[item.id] = item;
}

export const selectionSlice = createSlice({
  name: 'selection',
  initialState: selectionInitialState,
  reducers: {
    setMainSelect(state, action: PayloadAction<MainSection>) {
      state.mainSection = action.payload;
    },
    resetSelected(state) {
      state.mainSection = emptyMain;
    },
    /** Multi-select: toggles each item; entering the mode moves the main selection into it. */
    toggleMultiSelect(state, action: PayloadAction<MultiSelectItem[]>) {
      const items = action.payload;
      if (!state.multiSelectMode) {
        const main = state.mainSection;
        if (main.id && main.type && !items.some((item) => item.id === main.id)) {
          state.multiSelectMap[main.id] = { id: main.id, type: main.type === 'folder' ? 'folder' : 'file' };
        }
        state.mainSection = emptyMain;
        state.multiSelectMode = true;
      }
      for (const item of items) toggleItem(state.multiSelectMap, item);
      state.multiSelectCount = Object.keys(state.multiSelectMap).length;
      if (state.multiSelectCount === 0) state.multiSelectMode = false;
    },
    resetMultiSelect(state) {
      state.multiSelectMap = {};
      state.multiSelectCount = 0;
      state.multiSelectMode = false;
    },
    setPopupSelect(state, action: PayloadAction<SelectionState['popupModal']>) {
      state.popupModal = action.payload;
    },
    resetPopupSelect(state) {
      state.popupModal = selectionInitialState.popupModal;
    },
    setShareSelected(state, action: PayloadAction<FileRef>) {
      state.shareModal = { file: action.payload };
    },
    resetShareSelected(state) {
      state.shareModal = { file: null };
    },
    setMoveModal(state, action: PayloadAction<SelectionState['moveModal']>) {
      state.moveModal = action.payload;
    },
    resetMoveModal(state) {
      state.moveModal = selectionInitialState.moveModal;
    },
    addNavigationMap(state, action: PayloadAction<{ url: string; scrollTop: number }>) {
      state.navigationMap[action.payload.url] = action.payload;
    },
    removeNavigationMap(state, action: PayloadAction<string>) {
      delete state.navigationMap[action.payload];
    },
  },
});

export const {
  setMainSelect,
  resetSelected,
  toggleMultiSelect,
  resetMultiSelect,
  setPopupSelect,
  resetPopupSelect,
  setShareSelected,
  resetShareSelected,
  setMoveModal,
  resetMoveModal,
  addNavigationMap,
  removeNavigationMap,
} = selectionSlice.actions;
