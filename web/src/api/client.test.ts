import { STORAGE_KEYS } from '@nimbus/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody, onRequest, requests, requestsTo } from '../test/http-mock';
import { ApiError } from './api-error';
import { http } from './client';

const USER = '/user-service/user';
const GET_TOKEN = '/user-service/get-token';
const unauthenticated = { status: 401, data: errorBody('UNAUTHENTICATED', 'Not signed in') };
const user = { _id: 'u1', email: 'ada@example.com', emailVerified: true };

afterEach(() => {
  vi.useRealTimers();
});

describe('HTTP client', () => {
  it('sends the browser id as the uuid header, created once as a v4 uuid in localStorage', async () => {
    onRequest('GET', USER, { status: 200, data: user });
    await http.get(USER);
    await http.get(USER);
    const id = localStorage.getItem(STORAGE_KEYS.browserId);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requests.map((r) => r.headers.uuid)).toEqual([id, id]);
  });

  it('on a 401 refreshes the token, waits 150 ms and retries the request once', async () => {
    vi.useFakeTimers();
    onRequest('GET', USER, unauthenticated, { status: 200, data: user });
    onRequest('POST', GET_TOKEN, { status: 200, data: { message: 'Token refreshed' } });

    const result = http.get(USER);
    await vi.advanceTimersByTimeAsync(149);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${USER}`, `POST ${GET_TOKEN}`]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ data: user });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${USER}`, `POST ${GET_TOKEN}`, `GET ${USER}`]);
  });

  it('rejects with the original error when the refresh fails, without retrying', async () => {
    onRequest('GET', USER, unauthenticated);
    onRequest('POST', GET_TOKEN, { status: 401, data: errorBody('INVALID_TOKEN') });

    const error = await http.get(USER).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(requestsTo('GET', USER)).toHaveLength(1);
    expect(requestsTo('POST', GET_TOKEN)).toHaveLength(1);
  });

  it('never retries a 401 from get-token itself', async () => {
    onRequest('POST', GET_TOKEN, { status: 401, data: errorBody('INVALID_TOKEN') });
    await expect(http.post(GET_TOKEN)).rejects.toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    expect(requests).toHaveLength(1);
  });

  it('retries only once: a second 401 is returned', async () => {
    onRequest('GET', USER, unauthenticated);
    onRequest('POST', GET_TOKEN, { status: 200, data: {} });
    await expect(http.get(USER)).rejects.toMatchObject({ status: 401 });
    expect(requestsTo('GET', USER)).toHaveLength(2);
    expect(requestsTo('POST', GET_TOKEN)).toHaveLength(1);
  });

  it('shares one refresh between concurrent 401s', async () => {
    onRequest('GET', USER, unauthenticated, unauthenticated, { status: 200, data: user });
    onRequest('POST', GET_TOKEN, { status: 200, data: {} });
    await Promise.all([http.get(USER), http.get(USER)]);
    expect(requestsTo('POST', GET_TOKEN)).toHaveLength(1);
    expect(requestsTo('GET', USER)).toHaveLength(4);
  });

  it('does not refresh when the 401 rejects the credentials of the call itself', async () => {
    onRequest('POST', '/user-service/login', { status: 401, data: errorBody('INVALID_CREDENTIALS') });
    await expect(http.post('/user-service/login', { email: 'a@b.c', password: 'wrong1' })).rejects.toMatchObject({ status: 401 });
    expect(requestsTo('POST', GET_TOKEN)).toHaveLength(0);
  });

  it('turns error bodies into ApiError with status and code', async () => {
    onRequest('PATCH', '/user-service/send-password-reset', { status: 429, data: errorBody('COOLDOWN', 'Please wait') });
    const error = await http.patch('/user-service/send-password-reset', { email: 'a@b.c' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'COOLDOWN', message: 'Please wait', requestId: 'test' });
  });

  it('rejects with a NETWORK_ERROR ApiError of status 0 when no answer comes', async () => {
    const error = await http.get('/nowhere').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('turns an answer without an error body into an UNKNOWN ApiError with its status', async () => {
    onRequest('GET', USER, { status: 502, data: 'Bad gateway' });
    await expect(http.get(USER)).rejects.toMatchObject({ status: 502, code: 'UNKNOWN' });
  });
});
