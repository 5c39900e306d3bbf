-- Webhooks: each account's endpoints, the events queued for them and every attempt to send one. Owned by the webhooks
-- module; account_id and created_by_user_id name the auth module's accounts and people, kept by these foreign keys.
-- The signing secret is stored sealed under a key derived from the server secret, since it is needed to sign.
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"sealed_secret" text NOT NULL,
	"created_by_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhooks_account_idx" ON "webhooks" USING btree ("account_id","created_at");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"webhook_id" uuid NOT NULL REFERENCES "webhooks"("id") ON DELETE CASCADE,
	"event_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"state" text NOT NULL CHECK ("state" IN ('PENDING', 'DELIVERED', 'FAILED')),
	"created_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"attempt_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("webhook_id","event_key");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("state","next_attempt_at");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_list_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at");
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","at");
