import { createSlice } from '@reduxjs/toolkit';

export interface DrawerState {
  drawOpen: boolean;
}

const initialState: DrawerState = { drawOpen: false };

/** The side menu drawer of small screens. */
export const drawerSlice = createSlice({
  name: 'drawer',
  initialState,
  reducers: {
    toggleDrawer(state) {
      state.drawOpen = !state.drawOpen;
    },
    openDrawer(state) {
      state.drawOpen = true;
    },
    closeDrawer(state) {
      state.drawOpen = false;
    },
  },
});

export const { toggleDrawer, openDrawer, closeDrawer } = drawerSlice.actions;
