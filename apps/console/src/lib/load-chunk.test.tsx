import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkErrorBoundary } from '../components/chunk-error-boundary';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, lazyChunk, loadChunk } from './load-chunk';

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A chunk that never arrives. */
const never = () => new Promise<never>(() => undefined);

describe('a chunk loaded on demand', () => {
  it('waits 120 seconds and then fails like a load error', async () => {
    const outcome = loadChunk(never).catch((error: unknown) => error);
    const settled = vi.fn();
    void outcome.then(settled);

    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);

    expect(await outcome).toBeInstanceOf(ChunkLoadError);
  });

  it('arrives as it is when it comes in time', async () => {
    await expect(loadChunk(() => Promise.resolve('page'))).resolves.toBe('page');
  });

  it('turns a failed load into the same error', async () => {
    const error = await loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChunkLoadError);
  });

  it("reaches the route's error boundary, which offers a reload, when the page has not arrived in 120 seconds", async () => {
    const Page = lazyChunk(never);
    render(
      <MantineProvider env="test">
        <ChunkErrorBoundary resetKey="/clusters">
          <Suspense fallback={<p>Loading</p>}>
            <Page />
          </Suspense>
        </ChunkErrorBoundary>
      </MantineProvider>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS));

    expect(screen.getByRole('alert')).toHaveTextContent('did not arrive within 120 seconds');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
  });
});
