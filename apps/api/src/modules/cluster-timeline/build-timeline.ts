/** The timeline's days: a cluster's events read as lifecycle events and deployment steps, beside each day's charges. */
import {
  CLUSTER_MESSAGES,
  DEPLOYMENT_STEP_EVENTS,
  DEPLOYMENT_STEP_LABELS,
  centsToAmount,
  type AuditEvent,
  type TimelineEntry,
  type TimelineResponse,
} from '@kumo/contract';
import type { TimelineEvent } from '../clusters/index.js';
import type { ClusterChargeDay } from '../metering/index.js';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Which step each deployment event completes. */
const STEP_DONE: Partial<Record<AuditEvent, number>> = {
  CLUSTER_CREATE_REQUESTED: 0,
  CLUSTER_RESOURCES_CREATED: 1,
  CLUSTER_DEPLOYED: 2,
};

/**
 * Newest first, grouped by UTC day. `events` are in the order they were written: those of the page's days and every
 * deployment event (at most four), so the steps are read whole even when the deployment straddles two pages.
 */
export function buildTimeline(input: {
  events: TimelineEvent[];
  charges: ClusterChargeDay[];
  deploying: boolean;
  from: Date;
  to: Date;
}): TimelineResponse['days'] {
  const dated: { at: Date; entry: TimelineEntry }[] = [];
  let stepsDone = 0;
  let failed = false;
  let lastStepAt: Date | undefined;
  for (const e of input.events) {
    const common = { at: e.at.toISOString(), description: e.description, caused_by: e.causedBy };
    if (!DEPLOYMENT_STEP_EVENTS.includes(e.event)) {
      dated.push({ at: e.at, entry: { kind: 'EVENT', event: e.event, ...common } });
      continue;
    }
    // A failure fails the first step not yet done.
    failed ||= e.event === 'CLUSTER_DEPLOYMENT_FAILED';
    const index = failed ? Math.min(stepsDone, DEPLOYMENT_STEP_LABELS.length - 1) : STEP_DONE[e.event]!;
    stepsDone = Math.max(stepsDone, index + 1);
    lastStepAt = e.at;
    const state = failed ? 'error' : 'success';
    dated.push({ at: e.at, entry: { kind: 'DEPLOYMENT_STEP', step: DEPLOYMENT_STEP_LABELS[index]!, state, ...common } });
  }
  // The step under way began when the one before it finished.
  if (input.deploying && !failed && lastStepAt && stepsDone < DEPLOYMENT_STEP_LABELS.length) {
    dated.push({
      at: lastStepAt,
      entry: {
        kind: 'DEPLOYMENT_STEP',
        step: DEPLOYMENT_STEP_LABELS[stepsDone]!,
        state: 'progress',
        at: lastStepAt.toISOString(),
        description: CLUSTER_MESSAGES.deploymentInProgress,
        caused_by: 'System',
      },
    });
  }

  const days = new Map<string, TimelineEntry[]>();
  const dayEntries = (day: string) => days.get(day) ?? days.set(day, []).get(day)!;
  for (const charge of input.charges) dayEntries(charge.day).push({ kind: 'CHARGE', amount: centsToAmount(charge.amountCents) });
  // Written order reversed, then a stable sort: newest first, and of two entries at the same instant the later written.
  const newestFirst = dated.filter(({ at }) => at >= input.from && at < input.to).reverse();
  newestFirst.sort((a, b) => b.at.getTime() - a.at.getTime());
  for (const { at, entry } of newestFirst) dayEntries(dayOf(at)).push(entry);
  return [...days.entries()].sort(([a], [b]) => (a < b ? 1 : -1)).map(([day, entries]) => ({ day, entries }));
}
