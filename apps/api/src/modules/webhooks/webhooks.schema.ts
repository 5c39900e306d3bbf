/** The webhooks module's tables: each account's endpoints, the events queued for them and every attempt to send one. */
import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** One endpoint of one account, with the events it asked for; its signing secret is kept sealed. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    /** AES-256-GCM of the signing secret under a key derived from the server secret: it must be read to sign. */
    sealedSecret: text('sealed_secret').notNull(),
    createdByUserId: uuid('created_by_user_id').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('webhooks_account_idx').on(table.accountId, table.createdAt)],
);

/** One event for one endpoint: its body is fixed when queued, so every retry sends (and signs) the same bytes. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    /** What the event is from (a notice's key, a cluster's audit entry): one delivery per endpoint and source. */
    eventKey: text('event_key').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    state: text('state').notNull(),
    createdAt: at('created_at').notNull(),
    /** When the next attempt is due (or, while one runs, when its claim runs out). */
    nextAttemptAt: at('next_attempt_at'),
    attemptCount: integer('attempt_count').notNull().default(0),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_event_idx').on(table.webhookId, table.eventKey),
    index('webhook_deliveries_due_idx').on(table.state, table.nextAttemptAt),
    index('webhook_deliveries_list_idx').on(table.webhookId, table.createdAt),
  ],
);

/** One try at sending a delivery: what the endpoint answered, or why no answer came. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: at('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.at)],
);
