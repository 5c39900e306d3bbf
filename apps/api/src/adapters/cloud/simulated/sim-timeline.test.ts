import { describe, expect, it } from 'vitest';
import { describeSimStack, SIM_TIMELINE, type SimStackRecord } from './sim-timeline.js';

const urls = { manager: 'http://portal/manager/', portal: 'http://portal/portal/' };
const t0 = new Date('2026-01-01T00:00:00Z');
/** Real time after t0 for `minutes` of simulated time at scale 60. */
const at = (minutes: number) => new Date(t0.getTime() + minutes * 1000);
const stack = (overrides: Partial<SimStackRecord> = {}): SimStackRecord => ({
  stackName: 'kumo-x',
  deploymentId: 'x',
  fails: false,
  createdAt: t0,
  powerAction: null,
  powerActionAt: null,
  deleteRequestedAt: null,
  ...overrides,
});
const describeAt = (record: SimStackRecord | undefined, minutes: number) => describeSimStack(record, at(minutes), 60, urls);

describe('the simulated cloud timeline', () => {
  it('reports no stack for an unknown name', () => {
    expect(describeAt(undefined, 5)).toMatchObject({ stackStatus: null, deploymentStatus: null, nodes: [] });
  });

  it('creates resources, then deploys Kumo node by node in about an hour', () => {
    expect(describeAt(stack(), 1)).toMatchObject({ stackStatus: 'CREATE_IN_PROGRESS', deploymentStatus: null, powerState: 'PENDING' });
    const midway = describeAt(stack(), 30);
    expect(midway).toMatchObject({ stackStatus: 'CREATE_COMPLETE', deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS' });
    const running = midway.nodes.filter((node) => node.nodeStatus === 'Running').length;
    expect(running).toBeGreaterThan(0);
    expect(running).toBeLessThan(midway.nodes.length);
    expect(midway.managerUrl).toBeUndefined();
    const done = describeAt(stack(), SIM_TIMELINE.deploymentCompleteAt);
    expect(done).toMatchObject({
      deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
      powerState: 'RUNNING',
      managerUrl: urls.manager,
      portalUrl: urls.portal,
    });
    expect(done.nodes.every((node) => node.serviceStatus === 'Online')).toBe(true);
    expect(done.nodes).toHaveLength(8);
  });

  it('fails and rolls back a stack whose cluster matches the failure pattern', () => {
    const failing = stack({ fails: true });
    expect(describeAt(failing, 5).stackStatus).toBe('CREATE_IN_PROGRESS');
    expect(describeAt(failing, 9)).toMatchObject({ stackStatus: 'CREATE_FAILED', failureReason: expect.any(String) });
    expect(describeAt(failing, 20).stackStatus).toBe('ROLLBACK_COMPLETE');
    // A failed stack can still be deleted.
    const deleted = stack({ fails: true, deleteRequestedAt: at(30) });
    expect(describeAt(deleted, 31).stackStatus).toBe('DELETE_IN_PROGRESS');
    expect(describeAt(deleted, 40).stackStatus).toBe('DELETE_COMPLETE');
  });

  it('stops within 5 minutes and starts again, with the links only while running', () => {
    const stopped = stack({ powerAction: 'STOP', powerActionAt: at(70) });
    expect(describeAt(stopped, 71).powerState).toBe('STOPPING');
    expect(describeAt(stopped, 75).powerState).toBe('STOPPED');
    expect(describeAt(stopped, 75).managerUrl).toBeUndefined();
    const started = stack({ powerAction: 'START', powerActionAt: at(80) });
    expect(describeAt(started, 82).powerState).toBe('STARTING');
    expect(describeAt(started, 90)).toMatchObject({ powerState: 'RUNNING', managerUrl: urls.manager });
  });

  it('deletes within 5 to 10 minutes', () => {
    const deleting = stack({ deleteRequestedAt: at(70) });
    expect(describeAt(deleting, 74).stackStatus).toBe('DELETE_IN_PROGRESS');
    expect(SIM_TIMELINE.deleteCompleteAt).toBeGreaterThanOrEqual(5);
    expect(SIM_TIMELINE.deleteCompleteAt).toBeLessThanOrEqual(10);
    expect(describeAt(deleting, 80).stackStatus).toBe('DELETE_COMPLETE');
  });
});
