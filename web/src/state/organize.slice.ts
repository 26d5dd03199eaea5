import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A file or folder an organizing dialog is about (just what the dialogs show and send). */
export interface OrganizeItem {
  type: 'file' | 'folder';
  id: string;
  name: string;
  /** '/' or the folder it is in. */
  parent: string;
}

export type ConfirmAction = 'trash' | 'restore' | 'delete';

/** Which organizing prompt or confirmation is open (the create-folder and rename prompts, trash/restore/delete questions). */
export interface OrganizeState {
  createFolder: { parent: string } | null;
  rename: OrganizeItem | null;
  confirm: { action: ConfirmAction; items: OrganizeItem[] } | null;
}

const initialState: OrganizeState = { createFolder: null, rename: null, confirm: null };

export const organizeSlice = createSlice({
  name: 'organize',
  initialState,
  reducers: {
    requestCreateFolder(state, action: PayloadAction<{ parent: string }>) {
      state.createFolder = action.payload;
    },
    requestRename(state, action: PayloadAction<OrganizeItem>) {
      state.rename = action.payload;
    },
    requestConfirm(state, action: PayloadAction<{ action: ConfirmAction; items: OrganizeItem[] }>) {
      if (action.payload.items.length > 0) state.confirm = action.payload;
    },
    closeCreateFolder(state) {
      state.createFolder = null;
    },
    closeRename(state) {
      state.rename = null;
    },
    closeConfirm(state) {
      state.confirm = null;
    },
  },
});

export const { requestCreateFolder, requestRename, requestConfirm, closeCreateFolder, closeRename, closeConfirm } = organizeSlice.actions;
