import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';
import { saveTokens } from './session';
import { startEarlyReads, takeEarlyRead } from './early-reads';

const fetchMock = vi.fn<typeof fetch>();
const urls = () => fetchMock.mock.calls.map(([input]) => input as string);

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  fetchMock.mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ read: 'early' }), { status: 200 })));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('reads started with the first screen', () => {
  it("sends the shell's and the page's first reads with the session's token", () => {
    startEarlyReads('/clusters/s-1/d-1', 'jwt-a');
    expect(urls()).toEqual([
      '/api/user/detail',
      '/api/user/notifications?page=0&size=10',
      '/api/saas-common/help-document-links',
      '/api/cluster/view',
    ]);
    const headers = new Headers(fetchMock.mock.calls[0]![1]?.headers);
    expect(headers.get('Authorization')).toBe('Bearer jwt-a');
    expect(headers.get('userTimeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    for (const url of urls()) void takeEarlyRead(url, 'jwt-a');
  });

  it('sends nothing for a page it does not know, such as the staff area', () => {
    startEarlyReads('/admin/customers', 'jwt-a');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('hands an answer over once, and only to a read sent with the same token while it is fresh', () => {
    vi.useFakeTimers();
    startEarlyReads('/users', 'jwt-a');
    expect(takeEarlyRead('/api/account/users', 'jwt-b')).toBeUndefined();
    expect(takeEarlyRead('/api/account/users', 'jwt-a')).toBeUndefined();
    expect(takeEarlyRead('/api/account/invitations', 'jwt-a')).toBeInstanceOf(Promise);
    expect(takeEarlyRead('/api/account/invitations', 'jwt-a')).toBeUndefined();
    vi.advanceTimersByTime(10_001);
    expect(takeEarlyRead('/api/user/detail', 'jwt-a')).toBeUndefined();
  });

  it("is the API client's answer to the same read, which then sends nothing of its own", async () => {
    saveTokens('jwt-a', 'refresh-a');
    startEarlyReads('/subscriptions', 'jwt-a');
    const sent = fetchMock.mock.calls.length;
    await expect(apiRequest('/api/subscription/list')).resolves.toMatchObject({ data: { read: 'early' } });
    expect(fetchMock).toHaveBeenCalledTimes(sent);
    // Asked again, the read goes to the API.
    await apiRequest('/api/subscription/list');
    expect(fetchMock).toHaveBeenCalledTimes(sent + 1);
  });
});
