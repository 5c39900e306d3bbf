-- The notices a person reads in the console's bell: one row per account, person and notice, written beside each mail
-- the portal sends a customer. Owned by the notices module; account_id and recipient_user_id name the auth module's
-- accounts and people, kept by these foreign keys. A notice is written once per key and person, so a retried job
-- never writes it twice.
CREATE TABLE "notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"recipient_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "notices_recipient_key_idx" ON "notices" USING btree ("account_id","recipient_user_id","dedupe_key");
--> statement-breakpoint
CREATE INDEX "notices_recipient_created_idx" ON "notices" USING btree ("recipient_user_id","account_id","created_at");
--> statement-breakpoint
CREATE INDEX "notices_unread_idx" ON "notices" USING btree ("recipient_user_id","account_id") WHERE "read_at" IS NULL;
