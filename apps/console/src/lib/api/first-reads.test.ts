import { afterEach, describe, expect, it, vi } from 'vitest';
import { primeReads } from './first-reads';
import { queryClient } from './query-client';

afterEach(() => {
  queryClient.clear();
  vi.useRealTimers();
});

describe("a page's first reads", () => {
  it('are in the cache when the page is let render', async () => {
    await primeReads([{ queryKey: ['first', 'a'], queryFn: () => Promise.resolve('a') }]);
    expect(queryClient.getQueryData(['first', 'a'])).toBe('a');
  });

  it('take the first page of a list read by pages', async () => {
    await primeReads([
      {
        queryKey: ['first', 'paged'],
        queryFn: ({ pageParam }: { pageParam: number }) => Promise.resolve(`page ${pageParam}`),
        initialPageParam: 0,
        getNextPageParam: () => undefined,
      },
    ]);
    expect(queryClient.getQueryData(['first', 'paged'])).toEqual({ pages: ['page 0'], pageParams: [0] });
  });

  it('hold the page at most two seconds when the API is slow', async () => {
    vi.useFakeTimers();
    let settled = false;
    void primeReads([{ queryKey: ['first', 'slow'], queryFn: () => new Promise(() => undefined) }]).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it('let the page render with a failed read, which the page then shows', async () => {
    await primeReads([{ queryKey: ['first', 'failed'], queryFn: () => Promise.reject(new Error('no')), retry: false }]);
    expect(queryClient.getQueryState(['first', 'failed'])?.status).toBe('error');
  });
});
