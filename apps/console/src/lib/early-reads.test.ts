import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEADERS, STORAGE_KEYS } from '@kumo/contract';
import firstPaintScript from '../../public/first-paint.js?raw';
import { apiRequest } from './api-client';
import { saveTokens } from './session';
import { takeEarlyRead } from './early-reads';

const fetchMock = vi.fn<typeof fetch>();
const urls = () => fetchMock.mock.calls.map(([input]) => input as string);

/** Opens `path` with a stored session of `role` and runs the page's head script, which sends the early reads. */
function openPage(path: string, role = 'ACCOUNT_OWNER', token = 'jwt-a') {
  saveTokens(token, 'refresh-a');
  localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify({ userName: 'Dana Demo', role }));
  window.history.replaceState(null, '', path);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the head script itself, run as the browser runs it
  new Function(firstPaintScript)();
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  fetchMock.mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ read: 'early' }), { status: 200 })));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  delete window.kumoEarlyReads;
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe("reads started by the page's head script", () => {
  it("sends the shell's and the page's first reads with the session's token and the API client's headers", () => {
    openPage('/clusters/s-1/d-1');
    expect(urls()).toEqual([
      '/api/user/detail',
      '/api/user/notifications?page=0&size=10',
      '/api/saas-common/help-document-links',
      '/api/cluster/view',
    ]);
    const headers = new Headers(fetchMock.mock.calls[0]![1]?.headers);
    expect(headers.get('Authorization')).toBe('Bearer jwt-a');
    expect(headers.get(HEADERS.userTimeZone)).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(headers.get(HEADERS.correlationId)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends the home page's reads from the bare address", () => {
    openPage('/', 'ACCOUNT_ADMIN');
    expect(urls().slice(3)).toEqual(['/api/subscription/list', '/api/cluster/view', '/api/subscription/consumption/overview']);
  });

  it('sends nothing for a page it does not know, for a cluster member or staff, or without a session', () => {
    openPage('/admin/customers');
    openPage('/clusters', 'CLUSTER_MEMBER');
    openPage('/', 'SYSTEM_SUPPORT');
    localStorage.clear();
    window.history.replaceState(null, '', '/users');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- as above
    new Function(firstPaintScript)();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.kumoEarlyReads).toBeUndefined();
  });

  it('hands an answer over once, and only to a read sent with the same token while it is fresh', () => {
    vi.useFakeTimers();
    openPage('/users');
    expect(takeEarlyRead('/api/account/users', 'jwt-b')).toBeUndefined();
    expect(takeEarlyRead('/api/account/users', 'jwt-a')).toBeUndefined();
    expect(takeEarlyRead('/api/account/invitations', 'jwt-a')).toBeInstanceOf(Promise);
    expect(takeEarlyRead('/api/account/invitations', 'jwt-a')).toBeUndefined();
    vi.advanceTimersByTime(10_001);
    expect(takeEarlyRead('/api/user/detail', 'jwt-a')).toBeUndefined();
  });

  it("is the API client's answer to the same read, which then sends nothing of its own", async () => {
    openPage('/subscriptions');
    const sent = fetchMock.mock.calls.length;
    await expect(apiRequest('/api/subscription/list')).resolves.toMatchObject({ data: { read: 'early' } });
    expect(fetchMock).toHaveBeenCalledTimes(sent);
    // Asked again, the read goes to the API.
    await apiRequest('/api/subscription/list');
    expect(fetchMock).toHaveBeenCalledTimes(sent + 1);
  });
});
