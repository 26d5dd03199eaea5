import type { SignInOptionsDto } from '@nimbus/common';
import { http } from './client';

/** What the login screen offers besides the password (single sign-on). */
export const signInOptionsApi = {
  get: () => http.get<SignInOptionsDto>('/user-service/sign-in-options').then((r) => r.data),
};

export const signInOptionsKeys = {
  all: ['sign-in-options'] as const,
};
