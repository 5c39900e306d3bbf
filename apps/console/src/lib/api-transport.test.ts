import { TRANSPORT_MESSAGES } from '@kumo/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';
import { ApiError, errorMessage } from './api-error';
import { saveTokens } from './session';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  saveTokens('jwt', 'refresh');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fetch that waits until the call's signal aborts and then rejects as browsers do: with the signal's reason. */
function fetchUntilAborted() {
  fetchMock.mockImplementation(
    (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      }),
  );
}

async function failureOf(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('transport failures each say what happened', () => {
  it('an answer outside 200-299 without an error body: request failed with status code', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>bad gateway</html>', { status: 502 }));

    const error = await failureOf(apiRequest('/api/user/detail'));

    expect(errorMessage(error)).toBe('Request failed with status code 502');
    expect(error.status).toBe(502);
  });

  it('no answer at all: network error', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));

    const error = await failureOf(apiRequest('/api/user/detail'));

    expect(errorMessage(error)).toBe(TRANSPORT_MESSAGES.networkError);
    expect(error.transport).toBe('networkError');
  });

  it('the browser aborted the request: aborted', async () => {
    fetchMock.mockRejectedValueOnce(new DOMException('The user aborted a request.', 'AbortError'));

    const error = await failureOf(apiRequest('/api/user/detail'));

    expect(errorMessage(error)).toBe(TRANSPORT_MESSAGES.aborted);
    expect(error.transport).toBe('aborted');
  });

  it('the caller gave up waiting: time-out', async () => {
    fetchUntilAborted();
    const controller = new AbortController();

    const call = failureOf(apiRequest('/api/user/detail', { signal: controller.signal }));
    controller.abort(new DOMException('signal timed out', 'TimeoutError'));
    const error = await call;

    expect(errorMessage(error)).toBe(TRANSPORT_MESSAGES.timeout);
    expect(error.transport).toBe('timeout');
  });

  it('the caller cancelled the call: cancelled', async () => {
    fetchUntilAborted();
    const controller = new AbortController();

    const call = failureOf(apiRequest('/api/user/detail', { signal: controller.signal }));
    controller.abort();
    const error = await call;

    expect(errorMessage(error)).toBe(TRANSPORT_MESSAGES.cancelled);
    expect(error.transport).toBe('cancelled');
  });

  it('an address that is not HTTP or HTTPS: unsupported protocol, and nothing is sent', async () => {
    const error = await failureOf(apiRequest('ftp://files.example.com/report'));

    expect(errorMessage(error)).toBe('Unsupported protocol ftp: (the console calls its API over HTTP or HTTPS only).');
    expect(error.transport).toBe('unsupportedProtocol');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('gives each failure its own text', () => {
    const texts = Object.values(TRANSPORT_MESSAGES);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
