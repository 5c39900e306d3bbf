import { randomBytes } from 'node:crypto';
import { MESSAGES, type AccountUser, type CustomerRole, type InvitableRole, type PendingInvitation } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { AccountRecords, AuthService } from '../auth/index.js';
import type { AccountCaller } from '../../http/caller.js';
import type { TokenHasher } from '../../lib/crypto.js';
import type { MailService } from '../mail/index.js';
import { invitationMail } from './invitation-mail.js';
import type { InvitationRow, UsersRepository } from './users.repository.js';

export const INVITATION_VALID_DAYS = 7;

/** A person's API tokens in an account (the api-tokens module's): revoked when the person is removed. */
export interface PersonTokens {
  revokeAllOf(accountId: string, userId: string, tx: Tx): Promise<void>;
}

/** What the users module needs to know about an account's subscriptions (owned by the subscriptions module). */
export interface SubscriptionDirectory {
  list(accountId: string): Promise<{ id: string; name: string }[]>;
}

export function createUsersService(deps: {
  db: Database;
  repository: UsersRepository;
  auth: AuthService;
  /** People and memberships belong to the auth module: the users module adds and removes them through it. */
  accounts: AccountRecords;
  mail: MailService;
  subscriptions: SubscriptionDirectory;
  apiTokens: PersonTokens;
  clock: Clock;
  hasher: TokenHasher;
  publicUrl: string;
}) {
  const { db, repository, auth, accounts, mail, subscriptions, apiTokens, clock, hasher, publicUrl } = deps;
  const invitationHash = (token: string) => hasher.hash('invitation', token);
  /** Takes an invitation by its token, hashed under the current key or the one before (sent before the key changed). */
  async function acceptByToken(token: string, now: Date, tx: Parameters<UsersRepository['acceptInvitation']>[2]) {
    for (const hash of hasher.candidates('invitation', token)) {
      const invitation = await repository.acceptInvitation(hash, now, tx);
      if (invitation) return invitation;
    }
    return undefined;
  }

  const newToken = () => randomBytes(32).toString('base64url');
  const expiryFrom = (now: Date) => new Date(now.getTime() + INVITATION_VALID_DAYS * DAY);
  const invitationOf = (row: InvitationRow) => ({ email: row.email, name: row.userName, role: row.role as InvitableRole });
  const composeMail = (
    inviter: Awaited<ReturnType<AuthService['userDetail']>>,
    invited: { email: string; name: string; role: InvitableRole },
    token: string,
  ) =>
    invitationMail({
      to: invited.email,
      name: invited.name,
      inviterName: inviter.userName,
      ownerEmail: inviter.ownerEmailId ?? inviter.emailId,
      role: invited.role,
      link: `${publicUrl}/invite/accept?token=${token}`,
      validDays: INVITATION_VALID_DAYS,
    });

  return {
    async list(caller: AccountCaller): Promise<AccountUser[]> {
      const accountId = caller.accountId;
      const [members, grants, owned] = await Promise.all([
        repository.listMembers(accountId),
        repository.memberSubscriptionIds(accountId),
        subscriptions.list(accountId),
      ]);
      const names = new Map(owned.map((subscription) => [subscription.id, subscription.name]));
      return members.map((member) => ({
        user_id: member.userId,
        user_name: member.name,
        email_id: member.email,
        role: member.role as CustomerRole,
        subscription: grants.filter((grant) => grant.userId === member.userId).flatMap((grant) => names.get(grant.subscriptionId) ?? []),
        added_on: member.addedOn.toISOString(),
      }));
    },

    listSubscriptions: (caller: AccountCaller) => subscriptions.list(caller.accountId),

    /** The full name of a registered person, for the Add dialog's look-up. */
    /** The name of a registered customer, for the invite dialog; staff are answered as unknown e-mails, never named. */
    async checkUser(email: string): Promise<string> {
      const user = await repository.findUserByEmail(email);
      if (!user || user.systemRole) throw notFound('USER_NOT_FOUND', MESSAGES.userNotRegistered);
      return user.name;
    },

    async invite(
      caller: AccountCaller,
      input: { email: string; name: string; role: InvitableRole; subscriptionIds: string[] },
    ): Promise<string> {
      const accountId = caller.accountId;
      if (await repository.findMemberByEmail(accountId, input.email)) throw conflict('ALREADY_MEMBER', MESSAGES.alreadyMember);
      const subscriptionIds = input.role === 'CLUSTER_MEMBER' ? [...new Set(input.subscriptionIds)] : [];
      const owned = new Set((await subscriptions.list(accountId)).map((subscription) => subscription.id));
      if (subscriptionIds.some((id) => !owned.has(id))) {
        throw badRequest('VALIDATION_FAILED', MESSAGES.selectSubscription, { subscription_ids: MESSAGES.selectSubscription });
      }
      const inviter = await auth.userDetail(caller);
      const token = newToken();
      const now = clock.now();
      const { invitationId, mailId } = await db.transaction(async (tx) => {
        const invitationId = await repository.insertInvitation(
          {
            accountId,
            email: input.email,
            userName: input.name,
            role: input.role,
            subscriptionIds,
            tokenHash: invitationHash(token),
            invitedByUserId: caller.userId,
            expiresAt: expiryFrom(now),
            createdAt: now,
          },
          tx,
        );
        const message = composeMail(inviter, { email: input.email, name: input.name, role: input.role }, token);
        return { invitationId, mailId: await mail.enqueue(message, tx, 'invitation') };
      });
      await mail.dispatch(mailId, 'invitation');
      return invitationId;
    },

    /** The account's invitations still waiting for an answer, for the users list. */
    async listPendingInvitations(caller: AccountCaller): Promise<PendingInvitation[]> {
      const now = clock.now();
      const rows = await repository.listPendingInvitations(caller.accountId);
      return rows.map((row) => ({
        invitation_id: row.id,
        email_id: row.email,
        user_name: row.userName,
        role: row.role as InvitableRole,
        invited_on: row.createdAt.toISOString(),
        expires_on: row.expiresAt.toISOString(),
        expired: row.expiresAt.getTime() <= now.getTime(),
      }));
    },

    /** A fresh 7-day link by mail; the previous link stops working because its token hash is replaced. */
    async resendInvitation(caller: AccountCaller, invitationId: string): Promise<void> {
      const accountId = caller.accountId;
      const inviter = await auth.userDetail(caller);
      const token = newToken();
      const mailId = await db.transaction(async (tx) => {
        const row = await repository.renewInvitation(
          accountId,
          invitationId,
          { tokenHash: invitationHash(token), expiresAt: expiryFrom(clock.now()) },
          tx,
        );
        if (!row) throw notFound('NOT_FOUND', MESSAGES.invitationNotFound);
        if (await repository.findMemberByEmail(accountId, row.email, tx)) throw conflict('ALREADY_MEMBER', MESSAGES.alreadyMember);
        return mail.enqueue(composeMail(inviter, invitationOf(row), token), tx, 'invitation');
      });
      await mail.dispatch(mailId, 'invitation');
    },

    /** Revoking keeps the row as a record; accepting its link then fails like an expired one. */
    async revokeInvitation(caller: AccountCaller, invitationId: string): Promise<void> {
      const revoked = await repository.revokeInvitation(caller.accountId, invitationId, clock.now());
      if (!revoked) throw notFound('NOT_FOUND', MESSAGES.invitationNotFound);
    },

    /** Accepting creates the membership (and the person, when new) and signs them in to that account. */
    async acceptInvitation(token: string) {
      const now = clock.now();
      const accepted = await db.transaction(async (tx) => {
        const invitation = await acceptByToken(token, now, tx);
        if (!invitation) throw new AppError(422, 'INVITATION_INVALID', MESSAGES.accessExpired);
        const existing = await repository.findUserByEmail(invitation.email, tx);
        const user = existing ?? (await accounts.addPerson({ email: invitation.email, name: invitation.userName, createdAt: now }, tx));
        await accounts.addMember(invitation.accountId, user.id, invitation.role, now, tx);
        await repository.grantSubscriptions(invitation.accountId, user.id, invitation.subscriptionIds, tx);
        const member = await repository.findMemberByEmail(invitation.accountId, invitation.email, tx);
        return { userId: user.id, accountId: invitation.accountId, role: member!.role as CustomerRole, signUp: !existing };
      });
      const tokens = await auth.openSession(accepted.userId, accepted.accountId, accepted.role);
      return { ...tokens, role: accepted.role, signUp: accepted.signUp };
    },

    /** Removes a person from the caller's account; never the owner, never oneself. */
    async remove(caller: AccountCaller, email: string): Promise<void> {
      const accountId = caller.accountId;
      const target = await repository.findMemberByEmail(accountId, email);
      if (!target) throw notFound('NOT_FOUND', MESSAGES.notFound);
      if (target.role === 'ACCOUNT_OWNER' || target.userId === caller.userId) throw forbidden(MESSAGES.removeUserRefused);
      await db.transaction(async (tx) => {
        await repository.revokeSubscriptions(accountId, target.userId, tx);
        await accounts.removeMember(accountId, target.userId, tx);
        await apiTokens.revokeAllOf(accountId, target.userId, tx);
      });
      await auth.revokeAccountSessions(target.userId, accountId);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
