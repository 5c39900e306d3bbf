import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { CUSTOMER_ID } from '../../../test/admin-customers';
import { jsonResponse, mockApi } from '../../../test/api';
import { saveTokens } from '../../lib/session';
import { openManager } from './open-manager';

const DEPLOYMENT = '55555555-5555-4555-8555-555555555555';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('open manager', () => {
  it('says so when the browser blocks the new window, without asking for an address', async () => {
    saveTokens('jwt', 'refresh');
    const api = mockApi({});
    vi.spyOn(window, 'open').mockReturnValue(null);
    await expect(openManager(CUSTOMER_ID, DEPLOYMENT)).rejects.toThrow(MESSAGES.popupBlocked);
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('posts a form to the signed address into the window it opened', async () => {
    saveTokens('jwt', 'refresh');
    const api = mockApi({
      [`GET /api/admin/kumo/sso/${DEPLOYMENT}`]: () =>
        jsonResponse(200, { url: 'https://manager.example.com/sso?token=abc', expires_at: '2026-11-23T18:00:00.000Z' }),
    });
    const popup = { close: vi.fn() } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(popup);
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      expect(this.method).toBe('post');
      expect(this.action).toBe('https://manager.example.com/sso?token=abc');
      expect(this.target).toBe(open.mock.calls[0]?.[1]);
    });
    await openManager(CUSTOMER_ID, DEPLOYMENT);
    expect(submit).toHaveBeenCalledOnce();
    expect(api.fetchMock.mock.calls[0]?.[0]).toBe(`/api/admin/kumo/sso/${DEPLOYMENT}?userId=${CUSTOMER_ID}`);
  });
});
