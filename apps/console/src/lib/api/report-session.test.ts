import { MESSAGES } from '@kumo/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockApi, pathOf } from '../../../test/api';
import { api } from '../api-client';
import { getSession, onSessionEnd, saveTokens } from '../session';
import { signOut } from '../sign-out';
import { endReportSession } from './report-session';

const REPORT_LOGOUT = 'GET /api/user/report-logout';
let stop: () => void = () => undefined;
let sessions = 0;
let token = '';

beforeEach(() => {
  // As the console's entry subscribes it (main.tsx).
  stop = onSessionEnd((ending) => endReportSession(ending));
  // A session of its own per test: each one ends once.
  token = `jwt-${++sessions}`;
  saveTokens(token, `refresh-${sessions}`);
});

afterEach(() => {
  stop();
  vi.unstubAllGlobals();
});

/** The calls that went out, in order, each with the token it carried. */
function sent(fetchMock: ReturnType<typeof mockApi>['fetchMock']) {
  return fetchMock.mock.calls.map(([input, init]) => ({
    call: `${init?.method ?? 'GET'} ${pathOf(input)}`,
    authorization: new Headers(init?.headers).get('Authorization'),
  }));
}
/** Lets the calls started by the session's end finish (and any retry they would make go out). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const reportLogouts = (fetchMock: ReturnType<typeof mockApi>['fetchMock']) => sent(fetchMock).filter((c) => c.call === REPORT_LOGOUT);

describe('the report tool logs out whenever the session ends (spec section 4)', () => {
  it('on a failed refresh: once, with the ending session’s token, and the session is gone', async () => {
    const { fetchMock } = mockApi({
      'GET /api/subscription/list': () => errorResponse(401, 'TOKEN_EXPIRED', MESSAGES.jwtExpired),
      'POST /api/user/refresh-token': () => errorResponse(401, 'REFRESH_TOKEN_EXPIRED', MESSAGES.refreshExpired),
      [REPORT_LOGOUT]: () => errorResponse(401, 'TOKEN_EXPIRED', MESSAGES.jwtExpired),
    });
    // Two calls hit the expired token together: one refresh, one session end.
    await Promise.allSettled([api.get('/api/subscription/list'), api.get('/api/subscription/list')]);
    await vi.waitFor(() => expect(reportLogouts(fetchMock)).toHaveLength(1));
    await settle();
    expect(reportLogouts(fetchMock)).toEqual([{ call: REPORT_LOGOUT, authorization: `Bearer ${token}` }]);
    expect(getSession().jwtToken).toBeNull();
    // Its failure is not retried, nor does it try to renew the session.
    expect(sent(fetchMock).filter((c) => c.call === 'POST /api/user/refresh-token')).toHaveLength(1);
  });

  it('when the account’s role mapping is not found: once, however many calls are refused', async () => {
    const { fetchMock } = mockApi({
      'GET /api/subscription/list': () => errorResponse(404, 'ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound),
      [REPORT_LOGOUT]: () => errorResponse(404, 'ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound),
    });
    await Promise.allSettled([api.get('/api/subscription/list'), api.get('/api/subscription/list')]);
    await vi.waitFor(() => expect(reportLogouts(fetchMock)).toHaveLength(1));
    await settle();
    expect(reportLogouts(fetchMock)).toHaveLength(1);
    expect(reportLogouts(fetchMock)[0]!.authorization).toBe(`Bearer ${token}`);
    expect(getSession().jwtToken).toBeNull();
  });

  it('on logout: once, before the session is ended on the server, so its token still opens the call', async () => {
    const { fetchMock } = mockApi({
      [REPORT_LOGOUT]: () => jsonResponse(200, { message: 'Report session ended.' }),
      'POST /api/user/logout': () => jsonResponse(200, { message: 'Logged out.' }),
    });
    await signOut();
    expect(sent(fetchMock)).toEqual([
      { call: REPORT_LOGOUT, authorization: `Bearer ${token}` },
      { call: 'POST /api/user/logout', authorization: `Bearer ${token}` },
    ]);
    expect(getSession().jwtToken).toBeNull();
  });

  it('on a 401 on logout: once, and the session is gone', async () => {
    const { fetchMock } = mockApi({
      [REPORT_LOGOUT]: () => errorResponse(401, 'UNAUTHORIZED', MESSAGES.jwtExpired),
      'POST /api/user/logout': () => errorResponse(401, 'UNAUTHORIZED', MESSAGES.jwtExpired),
    });
    await signOut();
    await settle();
    expect(reportLogouts(fetchMock)).toEqual([{ call: REPORT_LOGOUT, authorization: `Bearer ${token}` }]);
    expect(getSession().jwtToken).toBeNull();
  });
});
