import type { UserDto } from '@nimbus/common';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Who is signed in in this tab (the session identity; account details come from queries). */
export interface UserState {
  user: UserDto | null;
  loggedIn: boolean;
  /** When the session tokens were last rotated (ms since epoch), 0 before the first refresh. */
  lastRefreshed: number;
}

const initialState: UserState = { user: null, loggedIn: false, lastRefreshed: 0 };

export const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {
    setUser(state, action: PayloadAction<UserDto>) {
      state.user = action.payload;
      state.loggedIn = true;
    },
    resetUser() {
      return initialState;
    },
    setLastRefreshed(state, action: PayloadAction<number>) {
      state.lastRefreshed = action.payload;
    },
  },
});

export const { setUser, resetUser, setLastRefreshed } = userSlice.actions;
