/**
 * The simulated cloud's count of API requests to a cluster's persistent storage: while its services are online it
 * makes about TYPICAL_STORAGE_REQUESTS_PER_HOUR requests an hour of its own (simulated) time, more in some hours and
 * fewer in others, and none while it deploys, is stopped or is deleted. Like the rest of the simulation the count is
 * a pure function of the stack's record and the window, so asking twice gives the same answer.
 */
import { createHash } from 'node:crypto';
import { TYPICAL_STORAGE_REQUESTS_PER_HOUR, type TimeWindow } from '../cloud-provisioner.js';
import { layoutNodes } from '../template/node-layout.js';
import { SIM_TIMELINE, simMinutes, type SimStackRecord } from './sim-timeline.js';

/**
 * When the stack's services were online, in real time, as far as its record tells: from the end of the deployment
 * (or of the last start) until the last stop or the delete request; null when it never came online. The record keeps
 * only the last start or stop, so before a start the cluster counts as stopped and before a stop as running.
 */
export function simOnlineSpan(stack: SimStackRecord, timeScale: number): { from: number; to: number } | null {
  if (stack.fails) return null;
  const realMs = (simMinutesAfter: number) => (simMinutesAfter * 60_000) / timeScale;
  let from = stack.createdAt.getTime() + realMs(SIM_TIMELINE.deploymentCompleteAt);
  let to = stack.deleteRequestedAt ? stack.deleteRequestedAt.getTime() : Number.POSITIVE_INFINITY;
  if (stack.powerAction && stack.powerActionAt) {
    const at = stack.powerActionAt.getTime();
    if (stack.powerAction === 'STOP') to = Math.min(to, at);
    else {
      const allOnline = layoutNodes().length * SIM_TIMELINE.startInterval + SIM_TIMELINE.startServiceLag;
      from = Math.max(from, at + realMs(allOnline));
    }
  }
  return to > from ? { from, to } : null;
}

/** The hour's own share of traffic: between 75% and 125% of the typical hour, fixed by the stack and the window. */
function hourFactor(stackName: string, window: TimeWindow): number {
  const digest = createHash('sha256').update(`${stackName}@${window.from.toISOString()}`).digest();
  return 0.75 + (digest.readUInt32BE(0) / 0x1_0000_0000) * 0.5;
}

/** Requests the stack made to its persistent storage in the window. */
export function simStorageRequests(stack: SimStackRecord, window: TimeWindow, timeScale: number): number {
  const span = simOnlineSpan(stack, timeScale);
  if (!span) return 0;
  const from = Math.max(span.from, window.from.getTime());
  const to = Math.min(span.to, window.to.getTime());
  if (to <= from) return 0;
  const onlineHours = simMinutes(new Date(from), new Date(to), timeScale) / 60;
  return Math.round(onlineHours * TYPICAL_STORAGE_REQUESTS_PER_HOUR * hourFactor(stack.stackName, window));
}
