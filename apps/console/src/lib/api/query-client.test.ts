import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { shouldRetryRead } from './query-client';

const answered = (status: number) => new ApiError('refused', { status });

describe('which failed reads are asked again', () => {
  it('asks once more when the server did not answer', () => {
    const noAnswer = ApiError.transportFailure('networkError');
    expect(shouldRetryRead(0, noAnswer)).toBe(true);
    expect(shouldRetryRead(1, noAnswer)).toBe(false);
  });

  it('asks twice more when the server answered 503', () => {
    expect(shouldRetryRead(0, answered(503))).toBe(true);
    expect(shouldRetryRead(1, answered(503))).toBe(true);
    expect(shouldRetryRead(2, answered(503))).toBe(false);
  });

  it('does not ask again after any other answer', () => {
    for (const status of [400, 401, 403, 404, 409, 429, 500]) expect(shouldRetryRead(0, answered(status))).toBe(false);
  });
});
