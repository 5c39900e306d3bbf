import { STORAGE_KEYS, type MessageResponse, type PaymentStatus, type Subscription, type UserDetail } from '@kumo/contract';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { api as typedApi, apiRequest } from './api-client';
import { ApiError } from './api-error';
import { bodyOf, pathOf } from '../../test/api';
import { userDetail } from '../../test/users';
import { enterCustomerView, getSession, saveTokens, saveUser } from './session';
import { abandonSession, isSessionExpired, renewSession } from './session-expiry';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function errorBody(code: string, message: string) {
  return { errorDetails: { error_code: code, error_message: message } };
}

const fetchMock = vi.fn<typeof fetch>();

function callsTo(path: string) {
  return fetchMock.mock.calls.filter(([input]) => pathOf(input) === path);
}

function authorizationOf(call: Parameters<typeof fetch>): string | null {
  return new Headers(call[1]?.headers).get('Authorization');
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  saveTokens('old-jwt', 'old-refresh');
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

function setXsrfCookie(value: string) {
  document.cookie = `XSRF-TOKEN=${value}; path=/`;
}

function xsrfOf(call: Parameters<typeof fetch> | undefined): string | null {
  return new Headers(call?.[1]?.headers).get('X-XSRF-TOKEN');
}

/** The transport tests call made-up paths: the same client, without the endpoint map's types. */
type LooseCall = (path: string, ...args: unknown[]) => Promise<unknown>;
const api = typedApi as unknown as Record<'get' | 'post' | 'put' | 'patch' | 'delete', LooseCall>;

describe('the endpoint map types the client by path', () => {
  it('gives each path its response and body types, and refuses unknown paths and wrong bodies', () => {
    // Compile-time checks: `tsc` fails when a path, a field or a body drifts from the contract.
    expectTypeOf(typedApi.get<'/api/user/detail'>).returns.resolves.toEqualTypeOf<UserDetail>();
    expectTypeOf(typedApi.get<'/api/subscription/list'>).returns.resolves.toEqualTypeOf<Subscription[]>();
    expectTypeOf(typedApi.post<`/api/credit/purchase/${string}/cancel`>).returns.resolves.toEqualTypeOf<PaymentStatus>();
    expectTypeOf(typedApi.put<'/api/account/delete-user'>).returns.resolves.toEqualTypeOf<MessageResponse>();
    const neverCalled = () => {
      // @ts-expect-error an endpoint the contract does not list
      void typedApi.get('/api/no-such-endpoint');
      // @ts-expect-error the login body needs email_id
      void typedApi.post('/api/user/login', { email: 'a@b.c' });
      // @ts-expect-error a field the user detail does not have
      void typedApi.get('/api/user/detail').then((user) => user.emailAddress);
    };
    expect(neverCalled).toBeTypeOf('function');
  });
});

describe('apiRequest', () => {
  it('sends the bearer token, a correlation id and the time zone, and returns the data', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { ok: true }));

    await expect(api.get('/api/user/detail')).resolves.toEqual({ ok: true });

    const headers = new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
    expect(headers.get('Authorization')).toBe('Bearer old-jwt');
    expect(headers.get('X-Correlation-ID')).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.get('userTimeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('encodes query parameters and JSON bodies', async () => {
    fetchMock.mockResolvedValueOnce(json(200, {}));

    await apiRequest('/api/admin/users', { method: 'POST', query: { page: 0, size: 50 }, body: { a: 1 } });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/admin/users?page=0&size=50');
    expect(init?.body).toBe('{"a":1}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('rejects with the server error body and its message', async () => {
    fetchMock.mockResolvedValueOnce(json(404, errorBody('USER_NOT_FOUND', 'Not registered.')));

    const error = await api.post('/api/user/login', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'USER_NOT_FOUND', message: 'Not registered.' });
  });

  it("reports 'No response from the server.' when the request never gets an answer", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));

    await expect(api.get('/api/user/detail')).rejects.toThrow('No response from the server.');
  });

  it('refreshes once for parallel calls with an expired token and retries each of them', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const url = pathOf(input);
      if (url === '/api/user/refresh-token') {
        return json(200, { message: 'ok' }, { jwt_token: 'new-jwt', refresh_token: 'new-refresh' });
      }
      const auth = new Headers(init?.headers).get('Authorization');
      if (auth === 'Bearer old-jwt') return json(401, errorBody('TOKEN_EXPIRED', 'JWT Token has expired.'));
      return json(200, { url });
    });

    const results = await Promise.all([api.get('/api/a'), api.get('/api/b'), api.get('/api/c')]);

    expect(results).toEqual([{ url: '/api/a' }, { url: '/api/b' }, { url: '/api/c' }]);
    const refreshCalls = callsTo('/api/user/refresh-token');
    expect(refreshCalls).toHaveLength(1);
    expect(bodyOf(refreshCalls[0]?.[1])).toEqual({ refresh_token: 'old-refresh' });
    for (const path of ['/api/a', '/api/b', '/api/c']) {
      expect(callsTo(path).map(authorizationOf)).toEqual(['Bearer old-jwt', 'Bearer new-jwt']);
    }
    expect(getSession()).toMatchObject({ jwtToken: 'new-jwt', refreshToken: 'new-refresh' });
  });

  it('clears the session when the refresh fails', async () => {
    saveUser(userDetail());
    fetchMock.mockImplementation(async (input) =>
      pathOf(input) === '/api/user/refresh-token'
        ? json(401, errorBody('REFRESH_TOKEN_EXPIRED', 'Refresh Token has expired.'))
        : json(401, errorBody('TOKEN_EXPIRED', 'JWT Token has expired.')),
    );

    await expect(api.get('/api/a')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });

    expect(getSession()).toEqual({ jwtToken: null, refreshToken: null, user: null });
    expect(localStorage.getItem(STORAGE_KEYS.userInfo)).toBeNull();
  });

  it('clears the session when the account role mapping is gone', async () => {
    fetchMock.mockResolvedValueOnce(json(403, errorBody('ROLE_MAPPING_NOT_FOUND', 'Account Role Mapping not found.')));

    await expect(api.get('/api/user/detail')).rejects.toThrow('Account Role Mapping not found.');

    expect(getSession().jwtToken).toBeNull();
  });

  it('does not refresh on other 401 errors', async () => {
    fetchMock.mockResolvedValueOnce(json(401, errorBody('TOKEN_INVALID', 'Invalid token.')));

    await expect(api.get('/api/a')).rejects.toMatchObject({ status: 401, code: 'TOKEN_INVALID' });

    expect(callsTo('/api/user/refresh-token')).toHaveLength(0);
  });
});

describe('XSRF protection', () => {
  it('echoes the XSRF-TOKEN cookie in X-XSRF-TOKEN on state-changing calls only', async () => {
    setXsrfCookie('nonce.mac');
    fetchMock.mockImplementation(async () => json(200, {}));

    await api.get('/api/a');
    await api.post('/api/b', {});
    await api.put('/api/c', {});
    await api.patch('/api/d', {});
    await api.delete('/api/e');

    expect(fetchMock.mock.calls.map(xsrfOf)).toEqual([null, 'nonce.mac', 'nonce.mac', 'nonce.mac', 'nonce.mac']);
  });

  it('sends the cookie a refresh has just replaced when it retries', async () => {
    setXsrfCookie('before-refresh');
    fetchMock.mockImplementation(async (input, init) => {
      if (pathOf(input) === '/api/user/refresh-token') {
        setXsrfCookie('after-refresh');
        return json(200, {}, { jwt_token: 'new-jwt', refresh_token: 'new-refresh' });
      }
      if (new Headers(init?.headers).get('Authorization') === 'Bearer old-jwt') {
        return json(401, errorBody('TOKEN_EXPIRED', 'JWT Token has expired.'));
      }
      return json(200, { ok: true });
    });

    await api.post('/api/b', {});

    expect(callsTo('/api/b').map(xsrfOf)).toEqual(['before-refresh', 'after-refresh']);
  });

  it('reloads the user detail for a fresh cookie and retries once when the server refuses the token', async () => {
    setXsrfCookie('stale');
    fetchMock.mockImplementation(async (input, init) => {
      if (pathOf(input) === '/api/user/detail') {
        setXsrfCookie('fresh');
        return json(200, userDetail());
      }
      return new Headers(init?.headers).get('X-XSRF-TOKEN') === 'fresh'
        ? json(200, { done: true })
        : json(403, errorBody('XSRF_INVALID', 'The request could not be verified.'));
    });

    await expect(api.post('/api/b', {})).resolves.toEqual({ done: true });

    expect(callsTo('/api/user/detail')).toHaveLength(1);
    expect(callsTo('/api/b').map(xsrfOf)).toEqual(['stale', 'fresh']);
  });

  it('gives up after one retry', async () => {
    fetchMock.mockImplementation(async (input) =>
      pathOf(input) === '/api/user/detail' ? json(200, userDetail()) : json(403, errorBody('XSRF_INVALID', 'Not verified.')),
    );

    await expect(api.put('/api/b', {})).rejects.toMatchObject({ status: 403, code: 'XSRF_INVALID' });

    expect(callsTo('/api/b')).toHaveLength(2);
    expect(getSession().jwtToken).toBe('old-jwt');
  });

  it('does not retry a refused GET', async () => {
    fetchMock.mockResolvedValueOnce(json(403, errorBody('XSRF_INVALID', 'Not verified.')));
    await expect(api.get('/api/a')).rejects.toMatchObject({ code: 'XSRF_INVALID' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('the Refresh-Token header', () => {
  it('carries the refresh token stored when the request leaves, also on the retry after a refresh', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      if (pathOf(input) === '/api/user/refresh-token') return json(200, {}, { jwt_token: 'new-jwt', refresh_token: 'new-refresh' });
      if (new Headers(init?.headers).get('Authorization') === 'Bearer old-jwt') {
        return json(401, errorBody('TOKEN_EXPIRED', 'JWT Token has expired.'));
      }
      return json(200, {});
    });

    await apiRequest('/api/user/switch-account', { method: 'POST', body: {}, withRefreshToken: true });

    expect(callsTo('/api/user/switch-account').map((call) => new Headers(call[1]?.headers).get('Refresh-Token'))).toEqual([
      'old-refresh',
      'new-refresh',
    ]);
  });
});

describe('a staff session that can no longer be refreshed', () => {
  function expiredEverywhere() {
    fetchMock.mockImplementation(async (input, init) => {
      if (pathOf(input) === '/api/user/refresh-token') return json(401, errorBody('REFRESH_TOKEN_EXPIRED', 'Refresh Token has expired.'));
      return new Headers(init?.headers).get('Authorization') === 'Bearer renewed-jwt'
        ? json(200, { url: pathOf(input) })
        : json(401, errorBody('TOKEN_EXPIRED', 'JWT Token has expired.'));
    });
  }

  it('keeps the calls waiting until the staff member signs in again, then retries them', async () => {
    saveUser(userDetail({ role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null }));
    expiredEverywhere();

    const calls = Promise.all([api.get('/api/a'), api.get('/api/b')]);
    await vi.waitFor(() => expect(isSessionExpired()).toBe(true));
    expect(callsTo('/api/user/refresh-token')).toHaveLength(1);
    expect(getSession().user).not.toBeNull();

    renewSession('renewed-jwt', 'renewed-refresh');

    await expect(calls).resolves.toEqual([{ url: '/api/a' }, { url: '/api/b' }]);
    expect(isSessionExpired()).toBe(false);
    expect(getSession()).toMatchObject({ jwtToken: 'renewed-jwt', refreshToken: 'renewed-refresh' });
  });

  it('fails the waiting calls and ends the session when the staff member gives up', async () => {
    saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null }));
    expiredEverywhere();

    const call = api.get('/api/a');
    await vi.waitFor(() => expect(isSessionExpired()).toBe(true));
    abandonSession();

    await expect(call).rejects.toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    expect(getSession().jwtToken).toBeNull();
  });

  it('sends customers back to the login instead', async () => {
    saveUser(userDetail({ role: 'ACCOUNT_ADMIN' }));
    expiredEverywhere();

    await expect(api.get('/api/a')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });

    expect(isSessionExpired()).toBe(false);
    expect(getSession().jwtToken).toBeNull();
  });
});

describe('a customer view that can no longer be refreshed', () => {
  it("ends once, for every call that finds it over, back in the staff member's own session", async () => {
    const staff = userDetail({ userName: 'Sue Support', role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null });
    saveTokens('staff-jwt', 'staff-refresh');
    saveUser(staff);
    enterCustomerView('view-jwt', 'view-refresh');
    saveUser(userDetail({ userSwitched: { userName: 'Sue Support', emailId: 'sue@kumo.test', expiresAt: '2026-03-10T09:30:00.000Z' } }));
    fetchMock.mockImplementation(async (input) =>
      pathOf(input) === '/api/user/refresh-token'
        ? json(401, errorBody('REFRESH_TOKEN_EXPIRED', 'Refresh Token has expired.'))
        : json(401, errorBody('TOKEN_EXPIRED', 'JWT Token has expired.')),
    );

    const calls = await Promise.allSettled([api.get('/api/a'), api.get('/api/b'), api.get('/api/c')]);

    expect(calls.map((call) => call.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(getSession()).toEqual({ jwtToken: 'staff-jwt', refreshToken: 'staff-refresh', user: staff });
    expect(localStorage.getItem(STORAGE_KEYS.staffSession)).toBeNull();
  });
});
