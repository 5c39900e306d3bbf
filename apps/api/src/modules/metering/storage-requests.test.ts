import { describe, expect, it } from 'vitest';
import { COUNTING_CONCURRENCY, createRequestCounting } from './storage-requests.js';

const HOUR = 3_600_000;
const origin = new Date('2026-01-01T00:00:00Z');
const mark = (clusterId: string, countedHours = 0) => ({
  clusterId,
  originAt: origin,
  hourMs: HOUR,
  countedUntil: new Date(origin.getTime() + countedHours * HOUR),
});

describe('counting storage requests', () => {
  it('asks the cloud about several clusters at once, never more than the limit, and counts every one', async () => {
    const marks = Array.from({ length: 20 }, (_, i) => mark(`cluster-${i}`));
    let inFlight = 0;
    let most = 0;
    const countRequests = createRequestCounting({
      repository: { requestMarks: async () => marks },
      count: async (_clusterId, windows) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return windows.map(() => 7);
      },
    });
    const result = await countRequests('account', new Date(origin.getTime() + 3 * HOUR + 1));
    expect(most).toBe(COUNTING_CONCURRENCY);
    expect(result.counted).toHaveLength(20);
    expect(result.requests).toHaveLength(60);
    expect(new Set(result.counted.map((c) => c.until.getTime()))).toEqual(new Set([origin.getTime() + 3 * HOUR]));
  });

  it('leaves a cluster the cloud fails for the next run and still counts the others', async () => {
    const countRequests = createRequestCounting({
      repository: { requestMarks: async () => [mark('fails'), mark('works'), mark('counted', 2)] },
      count: async (clusterId, windows) => {
        if (clusterId === 'fails') throw new Error('throttled');
        return windows.map(() => 1);
      },
    });
    const result = await countRequests('account', new Date(origin.getTime() + 2 * HOUR));
    expect(result.counted.map((c) => c.clusterId)).toEqual(['works']);
    expect(result.requests.map((r) => r.hourStart.getTime())).toEqual([origin.getTime(), origin.getTime() + HOUR]);
  });
});
