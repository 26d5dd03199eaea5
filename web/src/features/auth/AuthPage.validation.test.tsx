import { VALIDATION_MESSAGES } from '@nimbus/common';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, onRequest, requestsTo } from '../../test/http-mock';
import { renderApp } from '../../test/render-app';

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function openCreate() {
  renderApp('/');
  fireEvent.click(await screen.findByRole('button', { name: 'Create account' }));
  await screen.findByRole('heading', { name: 'Create an account' });
}

/** The submit button is the form's only submit-type button. */
function createSubmit(): HTMLButtonElement {
  const button = document.querySelector<HTMLButtonElement>('form button[type="submit"]');
  if (!button) throw new Error('no submit button');
  return button;
}

async function submitCreate(email: string, password: string, verifyPassword: string) {
  await openCreate();
  fill('Email address', email);
  fill('Password', password);
  fill('Verify password', verifyPassword);
  fireEvent.click(createSubmit());
  return screen.queryByRole('alert')?.textContent ?? null;
}

const long = (n: number) => 'p'.repeat(n);
const emailOfLength = (n: number) => `${'a'.repeat(n - 6)}@b.com`;

beforeEach(() => {
  onRequest('GET', '/user-service/user', { status: 401, data: errorBody('UNAUTHENTICATED') });
  onRequest('POST', '/user-service/get-token', { status: 401, data: errorBody('INVALID_TOKEN') });
});

describe('create account validation', () => {
  it.each([
    ['a password shorter than 6', 'ada@example.com', 'short', 'short', VALIDATION_MESSAGES.passwordTooShort],
    ['a password longer than 256', 'ada@example.com', long(257), long(257), VALIDATION_MESSAGES.passwordTooLong],
    ['different passwords', 'ada@example.com', 'secret1', 'secret12', VALIDATION_MESSAGES.passwordsDoNotMatch],
    ['an email shorter than 3', 'a@', 'secret1', 'secret1', VALIDATION_MESSAGES.emailTooShort],
    ['an email longer than 320', emailOfLength(321), 'secret1', 'secret1', VALIDATION_MESSAGES.emailTooLong],
    ['an email in a wrong format', 'ada.example.com', 'secret1', 'secret1', VALIDATION_MESSAGES.emailInvalid],
  ])('rejects %s', async (_case, email, password, verify, message) => {
    expect(await submitCreate(email, password, verify)).toBe(message);
    expect(requestsTo('POST', '/user-service/create')).toHaveLength(0);
  });

  it.each([
    ['a password of 256 and an email of 320 characters', emailOfLength(320), long(256)],
    ['a password of 6 characters', 'a@b.co', long(6)],
  ])('accepts %s', async (_case, email, password) => {
    onRequest('POST', '/user-service/create', { status: 500, data: errorBody('INTERNAL') });
    expect(await submitCreate(email, password, password)).toBeNull();
    await waitFor(() => expect(requestsTo('POST', '/user-service/create')).toHaveLength(1));
    expect(requestsTo('POST', '/user-service/create')[0]?.body).toEqual({ email, password });
  });

  it.each([
    ['password too short before a mismatch', 'ada@example.com', 'short', 'other', VALIDATION_MESSAGES.passwordTooShort],
    ['password too short before a short email', 'a@', 'short', 'short', VALIDATION_MESSAGES.passwordTooShort],
    ['password too long before a mismatch', 'x', long(257), long(258), VALIDATION_MESSAGES.passwordTooLong],
    ['a mismatch before email rules', 'a@', 'secret1', 'secret12', VALIDATION_MESSAGES.passwordsDoNotMatch],
    ['an email of exactly 3 characters is long enough', 'a@b', 'secret1', 'secret1', VALIDATION_MESSAGES.emailInvalid],
    ['email too short before its format', 'ab', 'secret1', 'secret1', VALIDATION_MESSAGES.emailTooShort],
    ['email too long before its format', 'a'.repeat(321), 'secret1', 'secret1', VALIDATION_MESSAGES.emailTooLong],
  ])('shows the first failure only: %s', async (_case, email, password, verify, message) => {
    expect(await submitCreate(email, password, verify)).toBe(message);
  });
});

describe('the message and the submit button', () => {
  it('disables submit while a message shows; a change of a field length clears it', async () => {
    await submitCreate('ada@example.com', 'secret1', 'secret2x');
    expect(screen.getByRole('alert').textContent).toBe(VALIDATION_MESSAGES.passwordsDoNotMatch);
    expect(createSubmit().disabled).toBe(true);

    fill('Verify password', 'secret2y');
    expect(screen.getByRole('alert').textContent).toBe(VALIDATION_MESSAGES.passwordsDoNotMatch);
    expect(createSubmit().disabled).toBe(true);

    fill('Verify password', 'secret1');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(createSubmit().disabled).toBe(false);
  });

  it.each(['Email address', 'Password'])('a length change of %s also clears the message', async (label) => {
    await submitCreate('ada@example.com', 'short', 'short');
    expect(screen.getByRole('alert')).toBeTruthy();
    fill(label, label === 'Password' ? 'shorter' : 'ada@example.co');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('create needs email, password and verify password', async () => {
    await openCreate();
    expect(createSubmit().disabled).toBe(true);
    fill('Email address', 'ada@example.com');
    fill('Password', 'secret1');
    expect(createSubmit().disabled).toBe(true);
    fill('Verify password', 'secret1');
    expect(createSubmit().disabled).toBe(false);
    fill('Email address', '');
    expect(createSubmit().disabled).toBe(true);
  });
});
