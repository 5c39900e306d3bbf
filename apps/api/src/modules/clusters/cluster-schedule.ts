/** The weekly start/stop schedule of a cluster: reading it, setting it, and acting on the rules that fell due. */
import {
  CLUSTER_MESSAGES,
  MESSAGES,
  canClusterDo,
  type ClusterStatus,
  type PutScheduleRequest,
  type ScheduleResponse,
  type ScheduleRule,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import { emailOf, type Caller, type ClusterRecords, type Follow } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import { startingCluster, type ClusterPower } from './power.js';
import { isValidTimeZone, nextOccurrence, occurrencesBetween, sortRules } from './schedule.js';

const DEFAULT_TIME_ZONE = 'UTC';

export function createClusterSchedules(deps: {
  db: Database;
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'requireCluster' | 'actorOf' | 'audit'>;
  power: Pick<ClusterPower, 'beginPowerChange' | 'holdForStart' | 'startRefusal'>;
  follow: Follow;
  clock: Clock;
}) {
  const { db, repository, power, follow, clock } = deps;
  const { requireCluster, actorOf, audit } = deps.records;

  function presentSchedule(
    clusterId: string,
    schedule: { enabled: boolean; timeZone: string; rules: ScheduleRule[] } | undefined,
  ): ScheduleResponse {
    const rules = sortRules(schedule?.rules ?? []);
    const timeZone = schedule?.timeZone ?? DEFAULT_TIME_ZONE;
    const next = schedule?.enabled ? nextOccurrence(rules, timeZone, clock.now()) : undefined;
    return {
      deployment_id: clusterId,
      enabled: schedule?.enabled ?? false,
      time_zone: timeZone,
      rules,
      next_run_at: next?.at.toISOString() ?? null,
      next_action: next?.action ?? null,
    };
  }

  /** Acts on every schedule rule that fell due since the last check: the latest due action wins. */
  async function runSchedules(): Promise<number> {
    const now = clock.now();
    let acted = 0;
    for (const { schedule, accountId } of await repository.enabledSchedules()) {
      const due = occurrencesBetween(schedule.rules as ScheduleRule[], schedule.timeZone, schedule.lastCheckedAt, now).at(-1);
      const started = await db.transaction(async (tx) => {
        await repository.markScheduleChecked(schedule.clusterId, now, tx);
        if (!due) return false;
        const row = await repository.lockForAccount(accountId, schedule.clusterId, tx);
        if (!row) return false;
        const action = due.action === 'START' ? 'start' : 'stop';
        if (!canClusterDo(action, row.status as ClusterStatus)) return false;
        if (action === 'start' && !(await power.holdForStart(row.subscriptionId, accountId, tx)).balanceAllowsStart) {
          await audit(
            row.id,
            'CLUSTER_START_REFUSED',
            `The schedule did not start ${row.name}: ${MESSAGES.minimumBalance}`,
            'Schedule',
            tx,
          );
          return false;
        }
        const refusal = action === 'start' ? await power.startRefusal(accountId, row.subscriptionId, tx, startingCluster(row)) : undefined;
        if (refusal) {
          await audit(row.id, 'CLUSTER_START_REFUSED', `The schedule did not start ${row.name}: ${refusal.message}`, 'Schedule', tx);
          return false;
        }
        await power.beginPowerChange(row, action, 'Schedule', tx);
        return true;
      });
      if (started) {
        acted++;
        await follow(schedule.clusterId);
      }
    }
    return acted;
  }

  return {
    runSchedules,

    async getSchedule(caller: Caller, id: string): Promise<ScheduleResponse> {
      const view = await requireCluster(caller, id);
      const row = await repository.findSchedule(view.cluster.id);
      return presentSchedule(view.cluster.id, row && { enabled: row.enabled, timeZone: row.timeZone, rules: row.rules as ScheduleRule[] });
    },

    async putSchedule(
      caller: Caller,
      id: string,
      request: PutScheduleRequest,
      headerTimeZone: string | undefined,
    ): Promise<ScheduleResponse> {
      const view = await requireCluster(caller, id);
      const timeZone = request.time_zone ?? headerTimeZone ?? DEFAULT_TIME_ZONE;
      if (!isValidTimeZone(timeZone))
        throw badRequest('VALIDATION_FAILED', CLUSTER_MESSAGES.scheduleTimeZoneInvalid, {
          time_zone: CLUSTER_MESSAGES.scheduleTimeZoneInvalid,
        });
      const now = clock.now();
      const rules = sortRules(request.rules);
      const actor = await actorOf(caller);
      await db.transaction(async (tx) => {
        await repository.upsertSchedule(
          { clusterId: view.cluster.id, enabled: request.enabled, timeZone, rules, lastCheckedAt: now, updatedAt: now },
          tx,
        );
        const summary = request.enabled
          ? `${rules.map((rule) => `${rule.action} ${rule.day} ${rule.time}`).join(', ') || 'no rules'} (${timeZone})`
          : 'disabled';
        await audit(
          view.cluster.id,
          'CLUSTER_SCHEDULE_CHANGED',
          `Schedule of ${view.cluster.name} set by ${emailOf(actor)}: ${summary}.`,
          actor,
          tx,
        );
      });
      return presentSchedule(view.cluster.id, { enabled: request.enabled, timeZone, rules });
    },
  };
}
