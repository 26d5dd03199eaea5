import { STORAGE_KEYS } from '@nimbus/common';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest } from '../../test/http-mock';
import { renderApp, testUser } from '../../test/render-app';

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.hasPreviouslyLoggedIn, 'true');
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  onRequest('GET', '/user-service/sign-in-options', {
    status: 200,
    data: { sso: { label: 'Sign in with Authentik', url: '/auth/oidc/start' } },
  });
});

const detailed = (hasPassword?: boolean) => ({
  status: 200,
  data: { ...testUser, createdAt: '2025-01-01T00:00:00.000Z', ...(hasPassword === undefined ? {} : { hasPassword }) },
});

describe('settings: account made by single sign-on', () => {
  it('says it signs in with the provider instead of offering to change a password', async () => {
    onRequest('GET', '/user-service/user-detailed', detailed(false));
    renderApp('/settings', { user: testUser });
    expect(await screen.findByText(/^Signs in with Authentik\./)).toBeTruthy();
    expect(screen.queryByText('Change password')).toBeNull();
  });

  it('keeps "Change password" for an account with a password, and for a server that does not say', async () => {
    for (const hasPassword of [true, undefined]) {
      onRequest('GET', '/user-service/user-detailed', detailed(hasPassword));
      const view = renderApp('/settings', { user: testUser });
      expect(await screen.findByText('Change password')).toBeTruthy();
      expect(screen.queryByText(/^Signs in with/)).toBeNull();
      view.unmount();
    }
  });
});
