import {
  API_TOKEN_LIMITS,
  API_TOKEN_MESSAGES,
  canUseCustomerArea,
  type ApiTokenScope,
  type CreateApiTokenValues,
  type Role,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { DAY, MINUTE } from '../../clock.js';
import { AppError, businessRule, notFound, unauthorized } from '../../errors.js';
import type { AccountCaller, Caller } from '../../http/caller.js';
import type { TokenHasher } from '../../lib/crypto.js';
import { isAddressAllowed } from './allowed-ips.js';
import type { ApiTokenRow, ApiTokensRepository } from './api-tokens.repository.js';
import { generateApiTokenSecret } from './secret.js';

/** A token's values without its secret's hash: Dates and ids. */
export type ApiTokenValue = Omit<ApiTokenRow, 'secretHash' | 'accountId' | 'userId' | 'revokedAt'>;
export type CreatedApiTokenValue = ApiTokenValue & { secret: string };

const HASH_PURPOSE = 'api-token';
/** last_used_at is written at most this often per token, so a busy script does not cost a write per call. */
const NOTE_USE_EVERY = MINUTE;

export function createApiTokensService(deps: { repository: ApiTokensRepository; clock: Clock; hasher: TokenHasher }) {
  const { repository, clock, hasher } = deps;
  const hashOf = (tokenSecret: string) => hasher.hash(HASH_PURPOSE, tokenSecret);
  /** A token by its secret, hashed under the current key or the one before (a token older than the key). */
  async function findBySecret(tokenSecret: string) {
    for (const hash of hasher.candidates(HASH_PURPOSE, tokenSecret)) {
      const token = await repository.findBySecretHash(hash);
      if (token) return token;
    }
    return undefined;
  }
  const invalid = () => unauthorized('TOKEN_INVALID', API_TOKEN_MESSAGES.tokenInvalid);

  function valueOf(row: ApiTokenRow): ApiTokenValue {
    const { secretHash: _hash, accountId: _account, userId: _user, revokedAt: _revoked, ...value } = row;
    return value;
  }

  return {
    /** A new token of the caller in the session's account; the secret is in this answer only. */
    async create(caller: AccountCaller, request: CreateApiTokenValues): Promise<CreatedApiTokenValue> {
      const now = clock.now();
      const tokenSecret = generateApiTokenSecret();
      const row = await repository.insertBelow(API_TOKEN_LIMITS.maxPerPerson, {
        accountId: caller.accountId,
        userId: caller.userId,
        name: request.name,
        scope: request.scope,
        prefix: tokenSecret.slice(0, API_TOKEN_LIMITS.displayChars),
        secretHash: hashOf(tokenSecret),
        allowedIps: [...new Set(request.allowed_ips)],
        createdAt: now,
        expiresAt: request.expires_in_days === null ? null : new Date(now.getTime() + request.expires_in_days * DAY),
      });
      if (!row) throw businessRule('VALIDATION_FAILED', API_TOKEN_MESSAGES.tooManyTokens);
      return { ...valueOf(row), secret: tokenSecret };
    },

    /** The caller's tokens in the session's account, without their secrets. */
    async list(caller: AccountCaller): Promise<ApiTokenValue[]> {
      return (await repository.listLive(caller.accountId, caller.userId)).map(valueOf);
    },

    /** Revokes one of the caller's tokens: it is refused from the next call on. */
    async revoke(caller: AccountCaller, tokenId: string): Promise<void> {
      if (!(await repository.revoke(caller.accountId, caller.userId, tokenId, clock.now()))) throw notFound();
    },

    /**
     * Revokes all of a person's tokens in an account, in the caller's transaction: when they leave it or lose the
     * role that may hold tokens, so coming back or being promoted again does not revive an old, maybe leaked, token.
     */
    async revokeAllOf(accountId: string, userId: string, tx?: Tx): Promise<void> {
      await repository.revokeAll(accountId, userId, clock.now(), tx);
    },

    /**
     * Who a token's secret speaks for: its creator, in its account, with the role they hold there now. Unknown,
     * revoked or orphaned (the creator left or lost the owner/admin role) is 401, expired is 401, a call from outside
     * the allowed addresses 403. A use is noted at most once a minute.
     */
    async verify(tokenSecret: string, client: { ip: string }): Promise<Caller> {
      const now = clock.now();
      const token = await findBySecret(tokenSecret);
      if (!token || token.revokedAt) throw invalid();
      if (!canUseCustomerArea(token.creatorRole ?? '')) {
        // The creator left or lost the role by a way that did not revoke it: it stays dead if they get it back.
        await repository.revokeAll(token.accountId, token.userId, now);
        throw invalid();
      }
      if (token.expiresAt && token.expiresAt <= now) throw unauthorized('TOKEN_EXPIRED', API_TOKEN_MESSAGES.tokenExpired);
      if (!isAddressAllowed(token.allowedIps, client.ip)) throw new AppError(403, 'TOKEN_IP_NOT_ALLOWED', API_TOKEN_MESSAGES.ipRefused);
      await repository.noteUse(token.id, client.ip, now, new Date(now.getTime() - NOTE_USE_EVERY));
      return {
        userId: token.userId,
        sessionId: token.id,
        accountId: token.accountId,
        role: token.creatorRole as Role,
        apiToken: { tokenId: token.id, name: token.name, scope: token.scope as ApiTokenScope },
      };
    },
  };
}
export type ApiTokensService = ReturnType<typeof createApiTokensService>;
