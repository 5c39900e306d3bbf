import { STORAGE_KEYS } from '@kumo/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, apiRequest } from './api-client';
import { ApiError } from './api-error';
import { bodyOf, pathOf } from '../../test/api';
import { userDetail } from '../../test/users';
import { getSession, saveTokens, saveUser } from './session';

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
