import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type UploadType = 'file' | 'folder';

/** One row of the upload panel. */
export interface UploadEntry {
  id: string;
  name: string;
  type: UploadType;
  /** Bytes. */
  size: number;
  /** 0-100. */
  progress: number;
  completed: boolean;
  canceled: boolean;
  /** Sent in pieces (tus): it can be paused, and survives network errors and reloads. */
  resumable?: boolean;
  paused?: boolean;
}

export interface UploadState {
  uploads: UploadEntry[];
}

export const uploadInitialState: UploadState = { uploads: [] };

export const isUploadFinished = (upload: UploadEntry) => upload.completed || upload.canceled;

export const uploadSlice = createSlice({
  name: 'upload',
  initialState: uploadInitialState,
  reducers: {
    addUpload(state, action: PayloadAction<Pick<UploadEntry, 'id' | 'name' | 'type' | 'size' | 'resumable'>>) {
      state.uploads.push({ ...action.payload, progress: 0, completed: false, canceled: false });
    },
    setUploadProgress(state, action: PayloadAction<{ id: string; progress: number }>) {
      const upload = state.uploads.find((u) => u.id === action.payload.id);
      if (upload && !isUploadFinished(upload)) upload.progress = Math.max(0, Math.min(100, action.payload.progress));
    },
    completeUpload(state, action: PayloadAction<string>) {
      const upload = state.uploads.find((u) => u.id === action.payload);
      if (upload && !upload.canceled) {
        upload.completed = true;
        upload.progress = 100;
      }
    },
    cancelUpload(state, action: PayloadAction<string>) {
      const upload = state.uploads.find((u) => u.id === action.payload);
      if (upload && !upload.completed) upload.canceled = true;
    },
    setUploadPaused(state, action: PayloadAction<{ id: string; paused: boolean }>) {
      const upload = state.uploads.find((u) => u.id === action.payload.id);
      if (upload && !isUploadFinished(upload)) upload.paused = action.payload.paused;
    },
    resetUploads(state) {
      state.uploads = [];
    },
  },
});

export const { addUpload, setUploadProgress, completeUpload, cancelUpload, setUploadPaused, resetUploads } = uploadSlice.actions;
