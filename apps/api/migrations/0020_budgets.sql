-- Budgets: a monthly amount per subscription with alert thresholds and an optional hard cap, and the alerts sent,
-- each once per subscription, UTC month, threshold and kind (docs/spend-control.md).
CREATE TABLE "budgets" (
	"subscription_id" uuid PRIMARY KEY NOT NULL REFERENCES "subscriptions"("id"),
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"monthly_amount_cents" bigint NOT NULL CHECK ("monthly_amount_cents" BETWEEN 100 AND 99999900),
	"thresholds" integer[] NOT NULL,
	"alert_on_forecast" boolean NOT NULL,
	"stop_clusters_at_limit" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "budgets_account_idx" ON "budgets" ("account_id");--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"month" text NOT NULL,
	"threshold" integer NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('ACTUAL', 'FORECAST')),
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "budget_alerts_pk" PRIMARY KEY ("subscription_id", "month", "threshold", "kind")
);
