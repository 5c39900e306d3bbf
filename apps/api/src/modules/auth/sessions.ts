import { MESSAGES, TOKENS, isSystemRole, permissionsFor, type Role } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.js';
import type { Caller } from '../../http/caller.js';
import type { TokenHasher } from '../../lib/crypto.js';
import type { AccessTokens } from './access-tokens.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import { generateRefreshToken } from './secrets.js';

export interface IssuedTokens {
  jwtToken: string;
  refreshToken: string;
  /** The session the tokens belong to, for binding the XSRF token. */
  sessionId: string;
}

/** A staff member viewing a customer's console: who acts, how they are named in the customer's audit trail, until when. */
export interface CustomerView {
  actingUserId: string;
  actorLabel: string;
  expiresAt: Date;
}

const REUSE_REASON = 'REFRESH_TOKEN_REUSED';

/** Whether a staff member holding `role` now may view a customer's console: the permission switch-user is behind. */
const viewAllowed = (role: string | null) => !!role && isSystemRole(role) && permissionsFor(role).customer_switch_user === 'ENABLED';

export type Sessions = ReturnType<typeof createSessions>;

/** Sessions: opening one (with its tokens), refreshing, switching account, and checking an access token against it. */
export function createSessions(deps: {
  db: Database;
  repository: AuthRepository;
  accessTokens: AccessTokens;
  clock: Clock;
  hasher: TokenHasher;
}) {
  const { db, repository, accessTokens, clock, hasher } = deps;
  const refreshHash = (token: string) => hasher.hash('refresh', token);
  /** A refresh token by its hash, under the current key or the one before (a session older than the key). */
  async function findRefreshToken(token: string) {
    for (const hash of hasher.candidates('refresh', token)) {
      const stored = await repository.findRefreshToken(hash);
      if (stored) return stored;
    }
    return undefined;
  }

  /** Chooses the account a session works in and the role held there. */
  async function resolveRole(
    user: UserRow,
    requestedAccountId: string | null | undefined,
  ): Promise<{ accountId: string | null; role: Role }> {
    if (user.systemRole && isSystemRole(user.systemRole)) return { accountId: null, role: user.systemRole };
    const memberships = await repository.listMemberships(user.id);
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
      const id = await repository.insertSession(
        { userId, accountId, createdAt: now, actingUserId: view?.actingUserId, expiresAt: view?.expiresAt },
        tx,
      );
      await repository.insertRefreshToken(
        {
          sessionId: id,
          tokenHash: refreshHash(refreshToken),
          expiresAt: view?.expiresAt ?? new Date(now.getTime() + TOKENS.refreshTokenDays * DAY),
          createdAt: now,
        },
        tx,
      );
      if (view && accountId) {
        await repository.insertAccountAudit(
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
    const caller: Caller = { userId, sessionId, accountId, role, ...(view ? { actingUserId: view.actingUserId } : {}) };
    return { jwtToken: await accessTokens.sign(caller, view?.expiresAt), refreshToken, sessionId };
  }

  return {
    resolveRole,
    startSession,

    /** Opens a session for a staff member whose identity an outside provider has proven (single sign-on). */
    async signInStaff(email: string): Promise<IssuedTokens & { role: Role }> {
      const user = await repository.findUserByEmail(email);
      if (!user?.systemRole || !isSystemRole(user.systemRole)) throw forbidden(MESSAGES.notStaff);
      return { ...(await startSession(user.id, null, user.systemRole)), role: user.systemRole };
    },

    /** Rotates a refresh token. A token used twice is a replay: its whole session is revoked. */
    async refresh(refreshToken: string): Promise<IssuedTokens> {
      const now = clock.now();
      const stored = await findRefreshToken(refreshToken);
      if (!stored) throw unauthorized('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      const session = await repository.findSession(stored.sessionId);
      if (!session || session.revokedAt) throw unauthorized('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      if (stored.expiresAt <= now) throw unauthorized('REFRESH_TOKEN_EXPIRED', MESSAGES.refreshExpired);

      const next = generateRefreshToken();
      const rotated = await db.transaction(async (tx) => {
        if (!(await repository.useRefreshToken(stored.id, now, tx))) return false;
        await repository.insertRefreshToken(
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
        await repository.revokeSession(session.id, REUSE_REASON, now);
        throw unauthorized('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      }
      const user = await repository.findUserById(session.userId);
      if (!user) throw unauthorized('ROLE_MAPPING_NOT_FOUND', MESSAGES.roleMappingNotFound);
      const { role } = await resolveRole(user, session.accountId);
      const caller: Caller = { userId: user.id, sessionId: session.id, accountId: session.accountId, role };
      const jwtToken = await accessTokens.sign(
        session.actingUserId ? { ...caller, actingUserId: session.actingUserId } : caller,
        session.expiresAt,
      );
      return { jwtToken, refreshToken: next, sessionId: session.id };
    },

    /**
     * Moves the caller to another account they belong to: the current session ends and a new one
     * starts there. The refresh token must be the live one of the caller's session.
     */
    async switchAccount(caller: Caller, refreshToken: string | undefined, accountId: string): Promise<IssuedTokens> {
      if (!refreshToken) throw badRequest('REFRESH_TOKEN_INVALID', MESSAGES.refreshTokenMissing);
      const now = clock.now();
      const stored = await findRefreshToken(refreshToken);
      if (!stored || stored.sessionId !== caller.sessionId || stored.usedAt || stored.expiresAt <= now) {
        throw badRequest('REFRESH_TOKEN_INVALID', MESSAGES.refreshInvalid);
      }
      const memberships = await repository.listMemberships(caller.userId);
      const target = memberships.find((membership) => membership.accountId === accountId);
      if (!target) throw notFound('ROLE_MAPPING_NOT_FOUND', MESSAGES.accountSwitchRoleMappingNotFound);
      await repository.revokeSession(caller.sessionId, 'SWITCHED_ACCOUNT', now);
      return startSession(caller.userId, accountId, target.role as Role);
    },

    /** Opens a session in the given account, for a person whose membership was just proven another way (an accepted invitation). */
    openSession: (userId: string, accountId: string, role: Role) => startSession(userId, accountId, role),

    /** Ends every session a person holds in one account (they were removed from it). */
    revokeAccountSessions: (userId: string, accountId: string) => repository.revokeAccountSessions(userId, accountId, clock.now()),

    /** Verifies an access token and that its session is still live (logout and replay revoke it). */
    async verifyAccessToken(token: string): Promise<Caller> {
      const caller = await accessTokens.verify(token);
      const session = await repository.findRequestSession(caller.sessionId);
      if (!session || session.revokedAt || session.userId !== caller.userId || session.actingUserId !== (caller.actingUserId ?? null)) {
        throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      }
      // A staff member's rights are those of the role they hold now, not the one the token was signed with: a role
      // lowered takes effect on the next request. No staff role left ends the staff session.
      if (caller.actingUserId) {
        // A customer view is a right of the viewing staff member's role: one that no longer grants it ends the view.
        if (!viewAllowed(session.actingSystemRole)) {
          await repository.revokeSession(caller.sessionId, 'STAFF_ROLE_CHANGED', clock.now());
          throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
        }
      } else if (isSystemRole(caller.role)) {
        if (!session.systemRole || !isSystemRole(session.systemRole)) throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
        return { ...caller, role: session.systemRole };
      }
      return caller;
    },
  };
}
