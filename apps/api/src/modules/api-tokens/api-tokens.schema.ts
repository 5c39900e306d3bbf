/** The api-tokens module's table: personal API tokens, each stored as a keyed hash of its secret. */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** One token of one person in one account; it works while unrevoked, unexpired and its creator manages the account. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    /** The first characters of the secret, shown in lists. */
    prefix: text('prefix').notNull(),
    /** HMAC-SHA256 of the secret under the server secret: the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    /** Addresses or CIDR ranges the token may be used from; empty allows any. */
    allowedIps: text('allowed_ips').array().notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
    lastUsedAt: at('last_used_at'),
    lastUsedIp: text('last_used_ip'),
  },
  (table) => [
    uniqueIndex('api_tokens_secret_hash_idx').on(table.secretHash),
    index('api_tokens_owner_idx')
      .on(table.accountId, table.userId, table.createdAt)
      .where(sql`${table.revokedAt} IS NULL`),
  ],
);
