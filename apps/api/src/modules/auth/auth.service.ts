import {
  ADMIN_MESSAGES,
  MESSAGES,
  OTP,
  TOKENS,
  isSystemRole,
  permissionsFor,
  type AccountAuditEvent,
  type AccountAuditResponse,
  type Role,
  type UserDetail,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY, HOUR, MINUTE, monthOf } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { badRequest, businessRule, conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../../errors.js';
import type { MailService } from '../mail/index.js';
import type { AccessClaims, AccessTokens } from './access-tokens.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { otpMail } from './otp-mail.js';
import { createOtpAttempts, type OtpComparison } from './otp-attempts.js';
import { hashesEqual, keyedHash } from '../../lib/crypto.js';
import { generateOtp, generateRefreshToken } from './secrets.js';

type OtpPurpose = 'LOGIN' | 'SIGN_UP';

export interface IssuedTokens {
  jwtToken: string;
  refreshToken: string;
  /** The session the tokens belong to, for binding the XSRF token. */
  sessionId: string;
}

const REUSE_REASON = 'REFRESH_TOKEN_REUSED';

/** A staff member viewing a customer's console: who acts, how they are named in the customer's audit trail, until when. */
interface CustomerView {
  actingUserId: string;
  actorLabel: string;
  expiresAt: Date;
}

const staffLabel = (staff: UserRow) => `${staff.name} (${staff.email})`;

export function createAuthService(deps: {
  db: Database;
  authRepository: AuthRepository;
  mail: MailService;
  accessTokens: AccessTokens;
  clock: Clock;
  secret: string;
}) {
  const { db, authRepository: repo, mail, accessTokens, clock, secret } = deps;
  const otpHash = (email: string, otp: string) => keyedHash(secret, `otp:${email}`, otp);
  const refreshHash = (token: string) => keyedHash(secret, 'refresh', token);
  const attemptOtp = createOtpAttempts({ db, repo, clock });

  async function assertNotLocked(email: string): Promise<void> {
    const until = await repo.lockedUntil(email);
    if (until && until > clock.now()) throw businessRule('OTP_LOCKED', MESSAGES.otpLocked);
  }

  async function issueOtp(email: string, purpose: OtpPurpose, userName: string | null): Promise<void> {
    await assertNotLocked(email);
    const now = clock.now();
    const sentLastHour = await repo.countSendsSince(email, new Date(now.getTime() - HOUR));
    if (sentLastHour >= OTP.maxSendsPerHour) throw tooManyRequests('OTP_RESEND_LIMIT', MESSAGES.otpResendLimit);

    const otp = generateOtp();
    const mailId = await db.transaction(async (tx) => {
      await repo.replaceChallenge(
        {
          email,
          purpose,
          userName,
          otpHash: otpHash(email, otp),
          expiresAt: new Date(now.getTime() + OTP.validMinutes * MINUTE),
          createdAt: now,
        },
        tx,
      );
      return mail.enqueue(otpMail(email, otp, purpose, userName), tx, 'otp');
    });
    await mail.dispatch(mailId, 'otp');
  }

  /** Chooses the account a session works in and the role held there. */
  async function resolveRole(
    user: UserRow,
    requestedAccountId: string | null | undefined,
  ): Promise<{ accountId: string | null; role: Role }> {
    if (user.systemRole && isSystemRole(user.systemRole)) return { accountId: null, role: user.systemRole };
    const memberships = await repo.listMemberships(user.id);
    const chosen =
      memberships.find((membership) => membership.accountId === requestedAccountId) ??
      memberships.find((membership) => membership.role === 'ACCOUNT_OWNER') ??
      memberships[0];
    if (!chosen) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
    return { accountId: chosen.accountId, role: chosen.role as Role };
  }

  /** A sign-in's session; or, with `view`, a customer view, whose start goes into the customer's audit trail with it. */
  async function startSession(userId: string, accountId: string | null, role: Role, view?: CustomerView): Promise<IssuedTokens> {
    const now = clock.now();
    const refreshToken = generateRefreshToken();
    const sessionId = await db.transaction(async (tx) => {
      const id = await repo.insertSession(
        { userId, accountId, createdAt: now, actingUserId: view?.actingUserId, expiresAt: view?.expiresAt },
        tx,
      );
      await repo.insertRefreshToken(
        {
          sessionId: id,
          tokenHash: refreshHash(refreshToken),
          expiresAt: view?.expiresAt ?? new Date(now.getTime() + TOKENS.refreshTokenDays * DAY),
          createdAt: now,
        },
        tx,
      );
      if (view && accountId) {
        await repo.insertAccountAudit(
          {
            accountId,
            event: 'USER_SWITCH_STARTED',
            description: `Kumo Cloud staff member ${view.actorLabel} started viewing the console, read-only.`,
            actorUserId: view.actingUserId,
            actorLabel: view.actorLabel,
            sessionId: id,
            createdAt: now,
          },
          tx,
        );
      }
      return id;
    });
    const claims = { userId, sessionId, accountId, role, ...(view ? { actingUserId: view.actingUserId } : {}) };
    return { jwtToken: await accessTokens.sign(claims, view?.expiresAt), refreshToken, sessionId };
  }

  /** Ends a customer view and records the end in the customer's audit trail, once. */
  async function endCustomerView(claims: AccessClaims, reason: string): Promise<void> {
    const staff = claims.actingUserId ? await repo.findUserById(claims.actingUserId) : undefined;
    const now = clock.now();
    await db.transaction(async (tx) => {
      if (!(await repo.revokeSession(claims.sessionId, reason, now, tx)) || !staff || !claims.accountId) return;
      await repo.insertAccountAudit(
        {
          accountId: claims.accountId,
          event: 'USER_SWITCH_ENDED',
          description: `Kumo Cloud staff member ${staffLabel(staff)} stopped viewing the console.`,
          actorUserId: staff.id,
          actorLabel: staffLabel(staff),
          sessionId: claims.sessionId,
          createdAt: now,
        },
        tx,
      );
    });
  }

  /** The staff member behind a customer view and when it ends, for the console's banner. */
  async function switchedBy(actingUserId: string, sessionId: string): Promise<UserDetail['userSwitched']> {
    const [staff, session] = await Promise.all([repo.findUserById(actingUserId), repo.findSession(sessionId)]);
    if (!staff || !session?.expiresAt) throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
    return { userName: staff.name, emailId: staff.email, expiresAt: session.expiresAt.toISOString() };
  }

  return {
    /**
     * The sign-in OTP rules for approvals outside sign-in (a cluster deletion, a staff four-eyes action): the same OTP, hashing,
     * attempt counting and daily lock, under a key the caller chooses so approvals and sign-in never lock each other.
     */
    approvalOtp: {
      generate: generateOtp,
      hash: (key: string, otp: string) => otpHash(key, otp),
      matches: (key: string, otp: string, hash: string) => hashesEqual(hash, otpHash(key, otp)),
      /**
       * One attempt as one atomic step: the lock of `lockKey` checked, `compare` run (it compares, and on a match
       * does the approved work in the same transaction), the attempt counted and the lock set when due.
       */
      attempt: <T>(lockKey: string, compare: (tx: Tx) => Promise<OtpComparison<T>>) => attemptOtp(lockKey, compare),
      assertNotLocked,
    },

    async login(email: string): Promise<void> {
      const user = await repo.findUserByEmail(email);
      if (!user) throw notFound('USER_NOT_FOUND', MESSAGES.userNotRegistered);
      await issueOtp(email, 'LOGIN', null);
    },

    async register(email: string, userName: string): Promise<void> {
      if (await repo.findUserByEmail(email)) throw conflict('USER_ALREADY_EXISTS', MESSAGES.userAlreadyRegistered);
      await issueOtp(email, 'SIGN_UP', userName);
    },

    async resendOtp(email: string): Promise<void> {
      const challenge = await repo.latestOpenChallenge(email);
      if (!challenge) throw businessRule('OTP_NOT_REQUESTED', MESSAGES.otpNotRequested);
      await issueOtp(email, challenge.purpose as OtpPurpose, challenge.userName);
    },

    async authenticate(email: string, otp: string, accountId?: string | null): Promise<IssuedTokens & { role: Role; signUp: boolean }> {
      // The lock check, the comparison and the count are one step per e-mail, whichever process each attempt reaches.
      const { user, signUp } = await attemptOtp(email, async (tx): Promise<OtpComparison<{ user: UserRow; signUp: boolean }>> => {
        const now = clock.now();
        const challenge = await repo.latestOpenChallenge(email, tx);
        if (!challenge) throw businessRule('OTP_NOT_REQUESTED', MESSAGES.otpNotRequested);
        if (challenge.expiresAt <= now) throw businessRule('OTP_EXPIRED', MESSAGES.otpExpired);
        if (!hashesEqual(challenge.otpHash, otpHash(email, otp))) return { matched: false };
        if (!(await repo.consumeChallenge(challenge.id, now, tx))) throw businessRule('OTP_INVALID', MESSAGES.otpInvalid);
        const existing = await repo.findUserByEmail(email, tx);
        if (existing) return { matched: true, value: { user: existing, signUp: false } };
        if (challenge.purpose !== 'SIGN_UP') throw notFound('USER_NOT_FOUND', MESSAGES.userNotRegistered);
        const created = await repo.insertUser(
          { email, name: challenge.userName ?? email, authProvider: 'EMAIL_OTP_AUTH', createdAt: now },
          tx,
        );
        await repo.insertAccountWithOwner(created.id, now, tx);
        return { matched: true, value: { user: created, signUp: true } };
      });
      const { accountId: chosenAccount, role } = await resolveRole(user, accountId);
      return { ...(await startSession(user.id, chosenAccount, role)), role, signUp };
    },

    /** Opens a session for a staff member whose identity an outside provider has proven (single sign-on). */
    async signInStaff(email: string): Promise<IssuedTokens & { role: Role }> {
      const user = await repo.findUserByEmail(email);
      if (!user?.systemRole || !isSystemRole(user.systemRole)) throw forbidden(MESSAGES.notStaff);
      return { ...(await startSession(user.id, null, user.systemRole)), role: user.systemRole };
    },

    /** Rotates a refresh token. A token used twice is a replay: its whole session is revoked. */
    async refresh(refreshToken: string): Promise<IssuedTokens> {
      const now = clock.now();
      const stored = await repo.findRefreshToken(refreshHash(refreshToken));
      if (!stored) throw unauthorized('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      const session = await repo.findSession(stored.sessionId);
      if (!session || session.revokedAt) throw unauthorized('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      if (stored.expiresAt <= now) throw unauthorized('REFRESH_TOKEN_EXPIRED', MESSAGES.refreshExpired);

      const next = generateRefreshToken();
      const rotated = await db.transaction(async (tx) => {
        if (!(await repo.useRefreshToken(stored.id, now, tx))) return false;
        await repo.insertRefreshToken(
          {
            sessionId: session.id,
            tokenHash: refreshHash(next),
            // A customer view never outlives its end, however often it is refreshed.
            expiresAt: session.expiresAt ?? new Date(now.getTime() + TOKENS.refreshTokenDays * DAY),
            createdAt: now,
          },
          tx,
        );
        return true;
      });
      if (!rotated) {
        await repo.revokeSession(session.id, REUSE_REASON, now);
        throw unauthorized('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      }
      const user = await repo.findUserById(session.userId);
      if (!user) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
      const { role } = await resolveRole(user, session.accountId);
      const claims = { userId: user.id, sessionId: session.id, accountId: session.accountId, role };
      const jwtToken = await accessTokens.sign(
        session.actingUserId ? { ...claims, actingUserId: session.actingUserId } : claims,
        session.expiresAt,
      );
      return { jwtToken, refreshToken: next, sessionId: session.id };
    },

    /**
     * Moves the caller to another account they belong to: the current session ends and a new one
     * starts there. The refresh token must be the live one of the caller's session.
     */
    async switchAccount(claims: AccessClaims, refreshToken: string | undefined, accountId: string): Promise<IssuedTokens> {
      if (!refreshToken) throw badRequest('REFRESH_TOKEN_INVALID', MESSAGES.refreshTokenMissing);
      const now = clock.now();
      const stored = await repo.findRefreshToken(refreshHash(refreshToken));
      if (!stored || stored.sessionId !== claims.sessionId || stored.usedAt || stored.expiresAt <= now) {
        throw badRequest('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      }
      const memberships = await repo.listMemberships(claims.userId);
      const target = memberships.find((membership) => membership.accountId === accountId);
      if (!target) throw notFound('ROLE_MAPPING_NOT_FOUND', MESSAGES.accountSwitchRoleMappingNotFound);
      await repo.revokeSession(claims.sessionId, 'SWITCHED_ACCOUNT', now);
      return startSession(claims.userId, accountId, target.role as Role);
    },

    /** Opens a session in the given account, for a person whose membership was just proven another way (an accepted invitation). */
    openSession: (userId: string, accountId: string, role: Role) => startSession(userId, accountId, role),

    /** Where the account owner is mailed: approvals of cluster deletion, metering's notices. */
    accountOwnerEmail: (accountId: string) => repo.accountOwnerEmail(accountId),

    /** Ends every session a person holds in one account (they were removed from it). */
    revokeAccountSessions: (userId: string, accountId: string) => repo.revokeAccountSessions(userId, accountId, clock.now()),

    async logout(claims: AccessClaims): Promise<void> {
      if (claims.actingUserId) return endCustomerView(claims, 'LOGOUT');
      await repo.revokeSession(claims.sessionId, 'LOGOUT', clock.now());
    },

    /**
     * userSwitched: a staff member views a customer's console in the owner's name, read-only, for at most
     * TOKENS.userSwitchedMinutes. The start and the end go into the customer's audit trail.
     */
    async switchToCustomer(
      staffUserId: string,
      customer: { userId: string; accountId: string },
    ): Promise<IssuedTokens & { expiresAt: Date }> {
      const [staff, owner] = await Promise.all([repo.findUserById(staffUserId), repo.findUserById(customer.userId)]);
      if (!staff?.systemRole || !isSystemRole(staff.systemRole)) throw forbidden(MESSAGES.notStaff);
      if (!owner) throw notFound('USER_NOT_FOUND', ADMIN_MESSAGES.customerNotFound);
      const { role } = await resolveRole(owner, customer.accountId);
      const expiresAt = new Date(clock.now().getTime() + TOKENS.userSwitchedMinutes * MINUTE);
      const tokens = await startSession(owner.id, customer.accountId, role, {
        actingUserId: staff.id,
        actorLabel: staffLabel(staff),
        expiresAt,
      });
      return { ...tokens, expiresAt };
    },

    /** Ends the caller's customer view (logout does too). */
    async endUserSwitch(claims: AccessClaims): Promise<void> {
      if (!claims.actingUserId) throw forbidden(ADMIN_MESSAGES.notUserSwitched);
      await endCustomerView(claims, 'USER_SWITCH_ENDED');
    },

    /** Verifies an access token and that its session is still live (logout and replay revoke it). */
    /** A month of the caller's account's audit trail (staff viewing its console), newest first. */
    async accountAudit(claims: AccessClaims, page: number, size: number, startDate?: string): Promise<AccountAuditResponse> {
      if (!claims.accountId) throw forbidden(MESSAGES.customerAreaOnly);
      const { from, to } = monthOf(startDate, clock.now());
      const { rows, total } = await repo.accountAuditPage(claims.accountId, from, to, page, size);
      return {
        page_content: {
          content: rows.map((row) => ({
            audit_id: row.id,
            date: row.createdAt.toISOString(),
            event: row.event as AccountAuditEvent,
            description: row.description,
            caused_by: row.actorLabel,
          })),
          totalPages: Math.ceil(total / size),
        },
        start_date: from.toISOString(),
        end_date: to.toISOString(),
      };
    },

    async verifyAccessToken(token: string): Promise<AccessClaims> {
      const claims = await accessTokens.verify(token);
      const session = await repo.findSession(claims.sessionId);
      if (!session || session.revokedAt || session.userId !== claims.userId || session.actingUserId !== (claims.actingUserId ?? null)) {
        throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      }
      return claims;
    },

    async userDetail(claims: AccessClaims): Promise<UserDetail> {
      const found = await repo.findUserWithMemberships(claims.userId);
      if (!found) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
      const { user, memberships } = found;
      const active = memberships.find((membership) => membership.accountId === claims.accountId);
      const staffRole = user.systemRole && isSystemRole(user.systemRole) ? user.systemRole : undefined;
      if (!active && !staffRole) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
      const switched = claims.actingUserId ? await switchedBy(claims.actingUserId, claims.sessionId) : undefined;
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
          logged_in: membership.accountId === claims.accountId,
          account_owner_email_id: membership.ownerEmail,
        })),
        ...(switched ? { userSwitched: switched } : {}),
      };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
