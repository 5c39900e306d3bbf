import { describe, expect, it } from 'vitest';
import { TYPICAL_STORAGE_REQUESTS_PER_HOUR } from '../cloud-provisioner.js';
import { simStorageRequests } from './sim-storage-requests.js';
import type { SimStackRecord } from './sim-timeline.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const created = new Date('2026-03-02T09:00:00Z');
const stack = (changes: Partial<SimStackRecord> = {}): SimStackRecord => ({
  stackName: 'kumo-sim-requests',
  deploymentId: 'sim-requests',
  fails: false,
  createdAt: created,
  powerAction: null,
  powerActionAt: null,
  deleteRequestedAt: null,
  ...changes,
});
const hour = (n: number) => ({ from: new Date(created.getTime() + n * HOUR), to: new Date(created.getTime() + (n + 1) * HOUR) });

describe('the simulated cloud counts storage API requests', () => {
  it('counts none while the cluster deploys, about the typical hour while it is online, the same when asked again', () => {
    // Real time (scale 1): the deployment completes 60 minutes after creation.
    expect(simStorageRequests(stack(), hour(0), 1)).toBe(0);
    const online = [1, 2, 3, 4, 5].map((n) => simStorageRequests(stack(), hour(n), 1));
    for (const count of online) {
      expect(count).toBeGreaterThanOrEqual(0.75 * TYPICAL_STORAGE_REQUESTS_PER_HOUR);
      expect(count).toBeLessThanOrEqual(1.25 * TYPICAL_STORAGE_REQUESTS_PER_HOUR);
    }
    // Hours differ from one another, and a second count of an hour is the first.
    expect(new Set(online).size).toBeGreaterThan(1);
    expect([1, 2, 3, 4, 5].map((n) => simStorageRequests(stack(), hour(n), 1))).toEqual(online);
  });

  it('counts only the online part of an hour, none after a stop or a delete, none for a failed stack', () => {
    const stopped = stack({ powerAction: 'STOP', powerActionAt: new Date(created.getTime() + 2 * HOUR + 30 * MINUTE) });
    const full = simStorageRequests(stack(), hour(2), 1);
    expect(Math.abs(simStorageRequests(stopped, hour(2), 1) - full / 2)).toBeLessThanOrEqual(1);
    expect(simStorageRequests(stopped, hour(3), 1)).toBe(0);
    const deleted = stack({ deleteRequestedAt: new Date(created.getTime() + 2 * HOUR) });
    expect(simStorageRequests(deleted, hour(2), 1)).toBe(0);
    expect(simStorageRequests(stack({ fails: true }), hour(2), 1)).toBe(0);
  });

  it('counts a started cluster from when its services are online again, in its own faster time', () => {
    const started = stack({ powerAction: 'START', powerActionAt: new Date(created.getTime() + 5 * HOUR) });
    expect(simStorageRequests(started, hour(4), 1)).toBe(0);
    expect(simStorageRequests(started, hour(6), 1)).toBeGreaterThan(0);
    // At 60 times real time a billable hour is one real minute, and counts like a real hour.
    const fast = stack({ stackName: 'kumo-fast' });
    const minute = (n: number) => ({ from: new Date(created.getTime() + n * MINUTE), to: new Date(created.getTime() + (n + 1) * MINUTE) });
    expect(simStorageRequests(fast, minute(2), 60)).toBeGreaterThanOrEqual(0.75 * TYPICAL_STORAGE_REQUESTS_PER_HOUR);
  });
});
