import { ADMIN_MESSAGES, MESSAGES, TOKENS, isSystemRole } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { MINUTE } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { forbidden, notFound } from '../../errors.js';
import type { Caller } from '../../http/caller.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { IssuedTokens, Sessions } from './sessions.js';

export const staffLabel = (staff: UserRow) => `${staff.name} (${staff.email})`;

/**
 * userSwitched: a staff member views a customer's console in the owner's name, read-only, for at most
 * TOKENS.userSwitchedMinutes. The start and the end go into the customer's audit trail. Logout ends a view too.
 */
export function createCustomerView(deps: {
  db: Database;
  repository: AuthRepository;
  sessions: Pick<Sessions, 'resolveRole' | 'startSession'>;
  clock: Clock;
}) {
  const { db, repository, sessions, clock } = deps;

  /** Ends a customer view and records the end in the customer's audit trail, once. */
  async function endCustomerView(caller: Caller, reason: string): Promise<void> {
    const staff = caller.actingUserId ? await repository.findUserById(caller.actingUserId) : undefined;
    const now = clock.now();
    await db.transaction(async (tx) => {
      if (!(await repository.revokeSession(caller.sessionId, reason, now, tx)) || !staff || !caller.accountId) return;
      await repository.insertAccountAudit(
        {
          accountId: caller.accountId,
          event: 'USER_SWITCH_ENDED',
          description: `Kumo Cloud staff member ${staffLabel(staff)} stopped viewing the console.`,
          actorUserId: staff.id,
          actorLabel: staffLabel(staff),
          sessionId: caller.sessionId,
          createdAt: now,
        },
        tx,
      );
    });
  }

  return {
    async logout(caller: Caller): Promise<void> {
      if (caller.actingUserId) return endCustomerView(caller, 'LOGOUT');
      await repository.revokeSession(caller.sessionId, 'LOGOUT', clock.now());
    },

    async switchToCustomer(
      staffUserId: string,
      customer: { userId: string; accountId: string },
    ): Promise<IssuedTokens & { expiresAt: Date }> {
      const [staff, owner] = await Promise.all([repository.findUserById(staffUserId), repository.findUserById(customer.userId)]);
      if (!staff?.systemRole || !isSystemRole(staff.systemRole)) throw forbidden(MESSAGES.notStaff);
      if (!owner) throw notFound('USER_NOT_FOUND', ADMIN_MESSAGES.customerNotFound);
      const { role } = await sessions.resolveRole(owner, customer.accountId);
      const expiresAt = new Date(clock.now().getTime() + TOKENS.userSwitchedMinutes * MINUTE);
      const tokens = await sessions.startSession(owner.id, customer.accountId, role, {
        actingUserId: staff.id,
        actorLabel: staffLabel(staff),
        expiresAt,
      });
      return { ...tokens, expiresAt };
    },

    /** Ends the caller's customer view (logout does too). */
    async endUserSwitch(caller: Caller): Promise<void> {
      if (!caller.actingUserId) throw forbidden(ADMIN_MESSAGES.notUserSwitched);
      await endCustomerView(caller, 'USER_SWITCH_ENDED');
    },
  };
}
