-- Metering: service rates with effective dates, the clusters being metered, one charge per
-- (cluster, dimension, billable hour), daily rollups of those charges and the notices mailed once.
CREATE TABLE "service_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"dimension" text NOT NULL,
	"rate_e4" bigint NOT NULL,
	"free_units" numeric(14, 4) DEFAULT 0 NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"created_by_user_id" uuid REFERENCES "users"("id"),
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_rates_rate_check" CHECK ("rate_e4" >= 0 and "rate_e4" < 1000000),
	CONSTRAINT "service_rates_free_units_check" CHECK ("free_units" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "service_rates_account_dimension_idx" ON "service_rates" USING btree ("account_id","dimension","effective_from");--> statement-breakpoint
CREATE TABLE "metering_clusters" (
	"cluster_id" uuid PRIMARY KEY NOT NULL REFERENCES "clusters"("id"),
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"origin_at" timestamp with time zone NOT NULL,
	"hour_ms" bigint NOT NULL,
	"has_backup" boolean NOT NULL,
	"checked_until" timestamp with time zone NOT NULL,
	"finished" boolean DEFAULT false NOT NULL,
	CONSTRAINT "metering_clusters_hour_check" CHECK ("hour_ms" > 0)
);
--> statement-breakpoint
CREATE INDEX "metering_clusters_subscription_idx" ON "metering_clusters" USING btree ("subscription_id") WHERE not finished;--> statement-breakpoint
CREATE TABLE "metering_charges" (
	"cluster_id" uuid NOT NULL REFERENCES "clusters"("id"),
	"dimension" text NOT NULL,
	"hour_start" timestamp with time zone NOT NULL,
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"quantity" numeric(18, 6) NOT NULL,
	"free_quantity" numeric(18, 6) NOT NULL,
	"rate_e4" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"run_id" uuid NOT NULL,
	"charged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "metering_charges_pk" PRIMARY KEY("cluster_id","dimension","hour_start"),
	CONSTRAINT "metering_charges_amount_check" CHECK ("amount_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX "metering_charges_subscription_idx" ON "metering_charges" USING btree ("subscription_id","hour_start");--> statement-breakpoint
CREATE INDEX "metering_charges_free_idx" ON "metering_charges" USING btree ("account_id","dimension","hour_start") WHERE free_quantity > 0;--> statement-breakpoint
CREATE TRIGGER metering_charges_append_only BEFORE UPDATE OR DELETE ON "metering_charges" FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();--> statement-breakpoint
CREATE TABLE "metering_daily_rollups" (
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"cluster_id" uuid NOT NULL REFERENCES "clusters"("id"),
	"dimension" text NOT NULL,
	"day" date NOT NULL,
	"amount_cents" bigint NOT NULL,
	"quantity" numeric(18, 6) NOT NULL,
	"free_quantity" numeric(18, 6) NOT NULL,
	CONSTRAINT "metering_daily_rollups_pk" PRIMARY KEY("subscription_id","day","cluster_id","dimension")
);
--> statement-breakpoint
CREATE INDEX "metering_daily_rollups_cluster_idx" ON "metering_daily_rollups" USING btree ("cluster_id","day");--> statement-breakpoint
CREATE TABLE "metering_notices" (
	"key" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Clusters that exist before metering begins are charged from now on, not for their past (at the default SIM_TIME_SCALE's hour).
INSERT INTO "metering_clusters" ("cluster_id", "subscription_id", "account_id", "origin_at", "hour_ms", "has_backup", "checked_until", "finished")
SELECT "id", "subscription_id", "account_id", "created_at", 60000, "backup_region" IS NOT NULL, now(), "deleted_at" IS NOT NULL FROM "clusters";
