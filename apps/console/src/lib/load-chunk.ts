import { lazy, type ComponentType } from 'react';

/** How long a chunk of the console loaded on demand may take to arrive (spec section 7). */
export const CHUNK_TIMEOUT_MS = 120_000;

/** A chunk that failed to arrive: it did not load, or it did not arrive within its time-out. */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/**
 * Loads a chunk, failing like a load error when it has not arrived within the time-out: the route's error
 * boundary (components/chunk-error-boundary.tsx) then offers to reload the page.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ChunkLoadError(`A part of the console did not arrive within ${timeoutMs / 1000} seconds.`));
    }, timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof ChunkLoadError ? error : new ChunkLoadError('A part of the console could not be loaded.', { cause: error }),
        );
      },
    );
  });
}

/** React's lazy component whose chunk loads under the time-out (typed as React's own `lazy`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, whatever its props, as in React's lazy
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() => loadChunk(load));
}
