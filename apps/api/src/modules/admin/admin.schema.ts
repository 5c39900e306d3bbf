/** The admin module's table: four-eyes operations. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/**
 * Four-eyes admin actions: the payload is frozen when asked for (HMAC in payload_hmac, checked again on approval),
 * one OTP hash per approver (approver e-mail → hash) so the approval names who approved; single use, expiring.
 */
export const adminOperations = pgTable(
  'admin_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actionName: text('action_name').notNull(),
    customerUserId: uuid('customer_user_id').notNull(),
    accountId: uuid('account_id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    payloadHmac: text('payload_hmac').notNull(),
    requestedByUserId: uuid('requested_by_user_id').notNull(),
    approverOtpHashes: jsonb('approver_otp_hashes').$type<Record<string, string>>().notNull(),
    expiresAt: at('expires_at').notNull(),
    sendCount: integer('send_count').notNull().default(1),
    firstSentAt: at('first_sent_at').notNull(),
    approvedAt: at('approved_at'),
    approvedByEmail: text('approved_by_email'),
    /** Withdrawn by the requester before approval: no OTP sent for it works any more. */
    cancelledAt: at('cancelled_at'),
    /** What changed, in words, once approved. */
    outcome: text('outcome'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    index('admin_operations_customer_idx').on(table.customerUserId, table.createdAt),
    index('admin_operations_pending_idx')
      .on(table.expiresAt)
      .where(sql`approved_at IS NULL`),
  ],
);
