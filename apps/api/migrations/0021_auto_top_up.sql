-- Automatic top-up: per subscription its settings and saved card, and one charge per subscription and UTC hour
-- (docs/spend-control.md). The sandbox payment provider keeps setup sessions beside its checkout sessions.
CREATE TABLE "auto_top_ups" (
	"subscription_id" uuid PRIMARY KEY NOT NULL REFERENCES "subscriptions"("id"),
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"enabled" boolean NOT NULL DEFAULT false,
	"threshold_cents" bigint NOT NULL CHECK ("threshold_cents" BETWEEN 0 AND 99999900),
	"top_up_cents" bigint NOT NULL CHECK ("top_up_cents" BETWEEN 100 AND 99999900),
	"monthly_cap_cents" bigint NOT NULL CHECK ("monthly_cap_cents" BETWEEN 100 AND 999999900),
	"status" text NOT NULL CHECK ("status" IN ('OFF', 'ACTIVE', 'PAUSED_AFTER_FAILURE')),
	"customer_id" text,
	"setup_session_id" text,
	"payment_method_id" text,
	"card_brand" text,
	"card_last4" text,
	"card_exp_month" integer,
	"card_exp_year" integer,
	"cap_notice_month" text,
	"updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "auto_top_ups_account_idx" ON "auto_top_ups" ("account_id") WHERE "status" = 'ACTIVE';--> statement-breakpoint
CREATE TABLE "auto_top_up_charges" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"month" text NOT NULL,
	"amount_cents" bigint NOT NULL CHECK ("amount_cents" > 0),
	"customer_id" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"card_label" text NOT NULL,
	"status" text NOT NULL CHECK ("status" IN ('PENDING', 'SUCCEEDED', 'DECLINED', 'AUTHENTICATION_REQUIRED')),
	"message" text,
	"payment_intent_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "auto_top_up_charges_month_idx" ON "auto_top_up_charges" ("subscription_id", "month");--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "mode" text NOT NULL DEFAULT 'payment';--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "payment_method_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "card_exp_month" integer;--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "card_exp_year" integer;
