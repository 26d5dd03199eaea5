import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp } from '../../test/render-app';

const preview = { email: 'carol@example.com', expiresAt: '2026-03-08T10:00:00.000Z' };

beforeEach(() => {
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
});

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('sign-up by invitation', () => {
  it('shows the invited e-mail filled in and read-only', async () => {
    onRequest('GET', '/invitation-service/public/tok123', { status: 200, data: preview });
    renderApp('/invite/tok123');
    await screen.findByRole('heading', { name: 'Create your account' });
    const email = screen.getByLabelText<HTMLInputElement>('Email address');
    expect(email.value).toBe('carol@example.com');
    expect(email.readOnly).toBe(true);
  });

  it('creates the account with the token and lands on /home signed in', async () => {
    onRequest('GET', '/invitation-service/public/tok123', { status: 200, data: preview });
    onRequest('POST', '/user-service/create', {
      status: 201,
      data: { user: { _id: 'u9', email: 'carol@example.com', emailVerified: true, role: 'user' }, emailSent: false },
    });
    const { router, store } = renderApp('/invite/tok123');
    await screen.findByRole('heading', { name: 'Create your account' });
    const submit = screen.getByRole('button', { name: 'Create account' });
    fill('Password', 'correct horse 1');
    fill('Verify password', 'correct horse 2');
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('alert')).toBeTruthy();
    fill('Verify password', 'correct horse 1');
    fireEvent.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(requestsTo('POST', '/user-service/create')[0]!.body).toEqual({
      email: 'carol@example.com',
      password: 'correct horse 1',
      invitation: 'tok123',
    });
    expect(store.getState().user.user?.email).toBe('carol@example.com');
  });

  it('says an unknown or expired invitation does not exist, with a link to sign in', async () => {
    onRequest('GET', '/invitation-service/public/old', { status: 404, data: errorBody('INVITATION_NOT_FOUND', 'gone') });
    renderApp('/invite/old');
    expect(await screen.findByRole('heading', { name: 'This invitation does not exist or has expired' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the sign-in page' }).getAttribute('href')).toBe('/');
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('says so too when the invitation ends between opening the page and signing up', async () => {
    onRequest('GET', '/invitation-service/public/tok123', { status: 200, data: preview });
    onRequest('POST', '/user-service/create', { status: 404, data: errorBody('INVITATION_NOT_FOUND', 'gone') });
    renderApp('/invite/tok123');
    await screen.findByRole('heading', { name: 'Create your account' });
    fill('Password', 'correct horse 1');
    fill('Verify password', 'correct horse 1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'This invitation does not exist or has expired' })).toBeTruthy();
  });

  it('explains an account that already exists in words', async () => {
    onRequest('GET', '/invitation-service/public/tok123', { status: 200, data: preview });
    onRequest('POST', '/user-service/create', { status: 409, data: errorBody('EMAIL_EXISTS', 'exists') });
    renderApp('/invite/tok123');
    await screen.findByRole('heading', { name: 'Create your account' });
    fill('Password', 'correct horse 1');
    fill('Verify password', 'correct horse 1');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('An account with this e-mail address already exists.')).toBeTruthy();
  });
});
