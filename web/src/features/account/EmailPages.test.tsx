import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { elapse, useFakeClock } from '../../test/clock';
import { renderApp } from '../../test/render-app';

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const resetButton = () => screen.getByRole('button', { name: 'Reset' }) as HTMLButtonElement;
const formMessage = () => document.querySelector('form [role="alert"]')?.textContent ?? null;

beforeEach(() => {
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
});

describe('verify e-mail page', () => {
  it('verifies the token, toasts "Email Verified" and goes to / after 1.5 s', async () => {
    useFakeClock();
    onRequest('PATCH', '/user-service/verify-email', { status: 200, data: {} });
    const { router } = renderApp('/verify-email/tok-1');
    expect(await screen.findByRole('heading', { name: 'Verifying email...' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Email Verified' })).toBeTruthy();
    await elapse(900);
    expect(router.state.location.pathname).toBe('/verify-email/tok-1');
    await elapse(700);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requestsTo('PATCH', '/user-service/verify-email')).toEqual([expect.objectContaining({ body: { emailToken: 'tok-1' } })]);
  });

  it('toasts "Error verifying email" on failure and stays', async () => {
    onRequest('PATCH', '/user-service/verify-email', { status: 401, data: errorBody('INVALID_TOKEN') });
    const { router } = renderApp('/verify-email/tok-2');
    expect(await screen.findByRole('heading', { name: 'Error verifying email' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/verify-email/tok-2');
  });
});

describe('reset password page', () => {
  it('has Password and Verify Password; Reset is disabled while empty, invalid or mismatched', async () => {
    renderApp('/reset-password/tok');
    await screen.findByLabelText('Password');
    expect(resetButton().disabled).toBe(true);
    fill('Password', 'short');
    fill('Verify Password', 'short');
    expect(formMessage()).toBe('Password must be at least 6 characters');
    expect(resetButton().disabled).toBe(true);
    fill('Password', 'p'.repeat(257));
    fill('Verify Password', 'p'.repeat(257));
    expect(formMessage()).toBe('Password must be less than 256 characters');
    fill('Password', 'newpass1');
    fill('Verify Password', 'newpass2');
    expect(formMessage()).toBe('Passwords do not match');
    expect(resetButton().disabled).toBe(true);
    fill('Verify Password', 'newpass1');
    expect(formMessage()).toBeNull();
    expect(resetButton().disabled).toBe(false);
  });

  async function submitReset(token = 'tok') {
    const view = renderApp(`/reset-password/${token}`);
    await screen.findByLabelText('Password');
    fill('Password', 'newpass1');
    fill('Verify Password', 'newpass1');
    fireEvent.click(resetButton());
    return view;
  }

  it.each([
    [401, 'Invalid token error'],
    [500, 'Reset Password Failed'],
  ])('a %i answer shows "%s" and the form is usable again', async (status, message) => {
    onRequest('PATCH', '/user-service/reset-password', { status, data: errorBody(status === 401 ? 'INVALID_TOKEN' : 'INTERNAL') });
    await submitReset();
    await waitFor(() => expect(formMessage()).toBe(message));
    expect(resetButton().disabled).toBe(false);
    expect(requestsTo('POST', '/user-service/get-token')).toHaveLength(0);
  });

  it('resets with the token, toasts and goes to / after 1.5 s', async () => {
    useFakeClock();
    onRequest('PATCH', '/user-service/reset-password', { status: 200, data: {} });
    const { router } = await submitReset('tok-9');
    expect(await screen.findByText('Resetting password...')).toBeTruthy();
    expect(await screen.findByText('Password Reset')).toBeTruthy();
    await elapse(900);
    expect(router.state.location.pathname).toBe('/reset-password/tok-9');
    await elapse(700);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(requestsTo('PATCH', '/user-service/reset-password')[0]?.body).toEqual({ passwordToken: 'tok-9', password: 'newpass1' });
  });
});
