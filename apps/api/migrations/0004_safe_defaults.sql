-- Mail kinds: OTP and invitation mail is capped per minute and per recipient domain, and OTP mail is delivered first.
ALTER TABLE "mail_outbox" ADD COLUMN "kind" text DEFAULT 'notification' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "priority" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_outbox_capped_idx" ON "mail_outbox" USING btree ("created_at") WHERE kind <> 'notification';--> statement-breakpoint
CREATE INDEX "mail_outbox_next_idx" ON "mail_outbox" USING btree ("priority" DESC, "created_at") WHERE status = 'PENDING';--> statement-breakpoint
-- Abandoned checkouts are found by age among the pending ones.
CREATE INDEX "purchases_pending_idx" ON "purchases" USING btree ("created_at") WHERE status = 'PAYMENT_INTENT_CREATED';
