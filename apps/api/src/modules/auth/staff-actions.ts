import type { AccountAuditEvent } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import { createAuthRepository } from './auth.repository.js';

/** The events staff cause from the admin area (the view's start and end are the session's own). */
export type StaffActionEvent = Exclude<AccountAuditEvent, 'USER_SWITCH_STARTED' | 'USER_SWITCH_ENDED'>;

export interface StaffAction {
  accountId: string;
  staffUserId: string;
  event: StaffActionEvent;
  /** What was done, after "Kumo Cloud staff member <name> (<e-mail>)": "turned the preview release on". */
  did: string;
}

/**
 * What staff do to a customer's account from the admin area, in the account's audit trail (Staff access) with the
 * staff member as the actor, named as the view's entries name them. Pass the transaction of the change itself, so
 * the change and its record commit together.
 */
export function createStaffActionLog(deps: { db: DbOrTx; clock: Clock }) {
  const repository = createAuthRepository(deps.db);
  return {
    async record(action: StaffAction, tx: DbOrTx = deps.db): Promise<void> {
      const staff = await repository.findUserById(action.staffUserId, tx);
      const label = staff ? `${staff.name} (${staff.email})` : 'Kumo Cloud staff';
      await repository.insertAccountAudit(
        {
          accountId: action.accountId,
          event: action.event,
          description: `Kumo Cloud staff member ${label} ${action.did}.`,
          actorUserId: action.staffUserId,
          actorLabel: label,
          createdAt: deps.clock.now(),
        },
        tx,
      );
    },
  };
}
export type StaffActionLog = ReturnType<typeof createStaffActionLog>;
