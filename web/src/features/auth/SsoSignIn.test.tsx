import { STORAGE_KEYS } from '@nimbus/common';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp } from '../../test/render-app';

const BROWSER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

beforeEach(() => {
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
  localStorage.setItem(STORAGE_KEYS.browserId, BROWSER_ID);
});

describe('single sign-on on the login screen', () => {
  it('offers the provider’s button, carrying the browser id, when the server has one', async () => {
    onRequest('GET', '/user-service/sign-in-options', {
      status: 200,
      data: { sso: { label: 'Sign in with Authentik', url: '/auth/oidc/start' } },
    });
    renderApp('/');
    const link = await screen.findByRole('link', { name: 'Sign in with Authentik' });
    expect(link.getAttribute('href')).toBe(`/auth/oidc/start?uuid=${BROWSER_ID}`);
  });

  it('shows nothing more without a provider', async () => {
    onRequest('GET', '/user-service/sign-in-options', { status: 200, data: { sso: null } });
    renderApp('/');
    await screen.findByRole('heading', { name: 'Login to your account' });
    await waitFor(() => expect(requestsTo('GET', '/user-service/sign-in-options')).toHaveLength(1));
    expect(screen.queryByRole('link', { name: /sign in with/i })).toBeNull();
  });

  it('says why the last single sign-on failed', async () => {
    onRequest('GET', '/user-service/sign-in-options', {
      status: 200,
      data: { sso: { label: 'Sign in with SSO', url: '/auth/oidc/start' } },
    });
    renderApp('/?sso_error=signup_closed');
    expect(await screen.findByText('There is no account for you here, and sign-up is closed.')).toBeTruthy();
  });

  it('ignores an sso_error it does not know', async () => {
    onRequest('GET', '/user-service/sign-in-options', { status: 200, data: { sso: null } });
    renderApp('/?sso_error=%3Cb%3Ehi%3C%2Fb%3E');
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(screen.queryByText(/hi/)).toBeNull();
  });
});
