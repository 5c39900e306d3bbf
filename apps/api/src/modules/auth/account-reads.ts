import { MESSAGES, isSystemRole, permissionsFor, type AccountAuditEvent, type Role, type UserDetail } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { monthOf } from '../../clock.js';
import { forbidden, unauthorized } from '../../errors.js';
import type { Caller } from '../../http/caller.js';
import { auditPageOf, type AuditEntry, type AuditPage } from '../../lib/audit-page.js';
import type { AuthRepository } from './auth.repository.js';

/** The most rows one month of the account's audit export holds. */
const AUDIT_EXPORT_MAX_ROWS = 10_000;

/** An entry of the account's trail: a staff action (no cluster) or a cluster's event. */
export type AccountTrailEntry = AuditEntry & { clusterId: string | null; clusterName: string | null };
/** The account's clusters' events of a month, newest first (the clusters module's, attached by the wiring). */
export type ClusterEvents = (accountId: string, month: { from: Date; to: Date }, limit: number) => Promise<AccountTrailEntry[]>;

/** What the signed-in person reads of themselves and their account: their detail and the account's staff trail. */
export function createAccountReads(deps: { repository: AuthRepository; clock: Clock }) {
  const { repository, clock } = deps;

  /** The staff member behind a customer view and when it ends, for the console's banner. */
  async function switchedBy(actingUserId: string, sessionId: string): Promise<UserDetail['userSwitched']> {
    const [staff, session] = await Promise.all([repository.findUserById(actingUserId), repository.findSession(sessionId)]);
    if (!staff || !session?.expiresAt) throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
    return { userName: staff.name, emailId: staff.email, expiresAt: session.expiresAt.toISOString() };
  }

  let clusterEvents: ClusterEvents = async () => [];

  return {
    /** Where the clusters' events come from (the clusters module, attached by the wiring). */
    attachClusterEvents(events: ClusterEvents): void {
      clusterEvents = events;
    },

    /** A month of the account's whole trail, cluster and staff actions, newest first: what the audit export writes. */
    async accountAuditExport(caller: Caller, startDate?: string): Promise<AccountTrailEntry[]> {
      if (!caller.accountId) throw forbidden(MESSAGES.customerAreaOnly);
      const month = monthOf(startDate, clock.now());
      const [staff, cluster] = await Promise.all([
        repository.accountAuditPage(caller.accountId, month.from, month.to, 0, AUDIT_EXPORT_MAX_ROWS),
        clusterEvents(caller.accountId, month, AUDIT_EXPORT_MAX_ROWS),
      ]);
      const staffEntries = auditPageOf(staff.rows, staff.total, AUDIT_EXPORT_MAX_ROWS, month).entries.map((entry) => ({
        ...entry,
        clusterId: null,
        clusterName: null,
      }));
      return [...staffEntries, ...cluster].sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, AUDIT_EXPORT_MAX_ROWS);
    },

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
