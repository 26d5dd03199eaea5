import type { CreateAccountResponse, LoginResponse, SecondFactorChallengeDto, UserDetailedDto, UserDto } from '@nimbus/common';
import { http } from './client';

interface Credentials {
  email: string;
  password: string;
}

/** The /user-service calls; each resolves with the response data as is. */
export const userApi = {
  /** A 202 asks for a second step (two-factor) before the session starts. */
  login: (body: Credentials) => http.post<LoginResponse | SecondFactorChallengeDto>('/user-service/login', body).then((r) => r.data),
  create: (body: Credentials) => http.post<CreateAccountResponse>('/user-service/create', body).then((r) => r.data),
  getUser: () => http.get<UserDto>('/user-service/user').then((r) => r.data),
  getUserDetailed: () => http.get<UserDetailedDto>('/user-service/user-detailed').then((r) => r.data),
  logout: () => http.post('/user-service/logout').then(() => undefined),
  logoutAll: () => http.post('/user-service/logout-all').then(() => undefined),
  changePassword: (body: { oldPassword: string; newPassword: string }) =>
    http.patch('/user-service/change-password', body).then(() => undefined),
  resendVerifyEmail: () => http.patch('/user-service/resend-verify-email').then(() => undefined),
  verifyEmail: (emailToken: string) => http.patch('/user-service/verify-email', { emailToken }).then(() => undefined),
  sendPasswordReset: (email: string) => http.patch('/user-service/send-password-reset', { email }).then(() => undefined),
  resetPassword: (body: { passwordToken: string; password: string }) =>
    http.patch('/user-service/reset-password', body).then(() => undefined),
};
