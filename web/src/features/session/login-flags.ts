import { STORAGE_KEYS } from '@nimbus/common';

function safely(action: () => void): void {
  try {
    action();
  } catch {
    // localStorage may be unavailable; the flags are only hints.
  }
}

export function hasPreviouslyLoggedIn(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.hasPreviouslyLoggedIn) === 'true';
  } catch {
    return false;
  }
}

export function rememberLogin(userId: string): void {
  safely(() => {
    localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
    localStorage.setItem(STORAGE_KEYS.userId, userId);
  });
}

export function forgetPreviousLogin(): void {
  safely(() => localStorage.removeItem(STORAGE_KEYS.hasPreviouslyLoggedIn));
}

/** At logout: the flag and the saved user id go. */
export function forgetLogin(): void {
  safely(() => {
    localStorage.removeItem(STORAGE_KEYS.hasPreviouslyLoggedIn);
    localStorage.removeItem(STORAGE_KEYS.userId);
  });
}
