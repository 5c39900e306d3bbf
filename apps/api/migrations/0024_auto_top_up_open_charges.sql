-- Automatic top-up asks after every metering run for the account's charges still pending, and a claim for any charge
-- of the subscription pending or made within the hour: both read a handful of rows by these indexes.
CREATE INDEX "auto_top_up_charges_pending_idx" ON "auto_top_up_charges" ("subscription_id") WHERE "status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "auto_top_up_charges_created_idx" ON "auto_top_up_charges" ("subscription_id", "created_at");
