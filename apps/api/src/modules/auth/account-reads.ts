import { MESSAGES, isSystemRole, permissionsFor, type AccountAuditEvent, type Role, type UserDetail } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { monthOf } from '../../clock.js';
import { forbidden, unauthorized } from '../../errors.js';
import type { Caller } from '../../http/caller.js';
import { auditPageOf, type AuditPage } from '../../lib/audit-page.js';
import type { AuthRepository } from './auth.repository.js';

/** What the signed-in person reads of themselves and their account: their detail and the account's staff trail. */
export function createAccountReads(deps: { repository: AuthRepository; clock: Clock }) {
  const { repository, clock } = deps;

  /** The staff member behind a customer view and when it ends, for the console's banner. */
  async function switchedBy(actingUserId: string, sessionId: string): Promise<UserDetail['userSwitched']> {
    const [staff, session] = await Promise.all([repository.findUserById(actingUserId), repository.findSession(sessionId)]);
    if (!staff || !session?.expiresAt) throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
    return { userName: staff.name, emailId: staff.email, expiresAt: session.expiresAt.toISOString() };
  }

  return {
    /** A month of the caller's account's audit trail (staff viewing its console), newest first. */
    async accountAudit(caller: Caller, page: number, size: number, startDate?: string): Promise<AuditPage<AccountAuditEvent>> {
      if (!caller.accountId) throw forbidden(MESSAGES.customerAreaOnly);
      const month = monthOf(startDate, clock.now());
      const { rows, total } = await repository.accountAuditPage(caller.accountId, month.from, month.to, page, size);
      return auditPageOf(rows, total, size, month);
    },

    async userDetail(caller: Caller): Promise<UserDetail> {
      const found = await repository.findUserWithMemberships(caller.userId);
      if (!found) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
      const { user, memberships } = found;
      const active = memberships.find((membership) => membership.accountId === caller.accountId);
      const staffRole = user.systemRole && isSystemRole(user.systemRole) ? user.systemRole : undefined;
      if (!active && !staffRole) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
      const switched = caller.actingUserId ? await switchedBy(caller.actingUserId, caller.sessionId) : undefined;
      return {
        userId: user.id,
        userName: user.name,
        emailId: user.email,
        ownerEmailId: active?.ownerEmail ?? null,
        authProvider: user.authProvider as UserDetail['authProvider'],
        role: (active?.role as Role | undefined) ?? staffRole!,
        ...(staffRole && !active ? { permissions: permissionsFor(staffRole) } : {}),
        accounts: memberships.map((membership) => ({
          account_id: membership.accountId,
          role: membership.role as Role,
          logged_in: membership.accountId === caller.accountId,
          account_owner_email_id: membership.ownerEmail,
        })),
        ...(switched ? { userSwitched: switched } : {}),
      };
    },
  };
}
