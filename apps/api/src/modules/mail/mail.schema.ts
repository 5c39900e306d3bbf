/** The mail module's table: the outbox. Sent mail is deleted after SENT_MAIL_RETENTION_MS (7 days). */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /** A body holding a secret (OTP and invitation mail) is sealed under the mail key, and blanked once SMTP has it. */
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** Insertion order, for "newest first" listings. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** PENDING until a transport accepted it, then SENT. */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** Held by one delivery at a time, so two workers never send the same mail at once. */
    leaseUntil: at('lease_until'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    sentAt: at('sent_at'),
    /** otp, invitation or notification: the first two are capped per minute and per recipient domain. */
    kind: text('kind').notNull().default('notification'),
    /** Higher is delivered first: OTP mail never waits behind other mail. */
    priority: smallint('priority').notNull().default(0),
  },
  (table) => [
    index('mail_outbox_pending_idx')
      .on(table.createdAt)
      .where(sql`status = 'PENDING'`),
    index('mail_outbox_capped_idx')
      .on(table.createdAt)
      .where(sql`kind <> 'notification'`),
    index('mail_outbox_sent_idx')
      .on(table.sentAt)
      .where(sql`status = 'SENT'`),
    index('mail_outbox_next_idx')
      .on(table.priority.desc(), table.createdAt)
      .where(sql`status = 'PENDING'`),
  ],
);
