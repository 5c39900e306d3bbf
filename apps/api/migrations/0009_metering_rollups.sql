-- Cost analysis without summing a year of daily rows: charges summed per subscription, month, cluster and
-- dimension (a cluster's month, the per-cluster table, the last 12 months of a cluster) and per subscription,
-- day and dimension (a subscription's daily table and its last 12 months). Both are written in the statement
-- that writes the charges, like the daily rollups, and start from those (in time order, as charging writes them).
CREATE TABLE "metering_monthly_rollups" (
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"month" date NOT NULL,
	"cluster_id" uuid NOT NULL REFERENCES "clusters"("id"),
	"dimension" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"quantity" numeric(18, 6) NOT NULL,
	"free_quantity" numeric(18, 6) NOT NULL,
	CONSTRAINT "metering_monthly_rollups_pk" PRIMARY KEY("subscription_id","month","cluster_id","dimension")
);
--> statement-breakpoint
CREATE INDEX "metering_monthly_rollups_cluster_idx" ON "metering_monthly_rollups" USING btree ("cluster_id","month");--> statement-breakpoint
CREATE TABLE "metering_subscription_daily_rollups" (
	"subscription_id" uuid NOT NULL REFERENCES "subscriptions"("id"),
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"quantity" numeric(18, 6) NOT NULL,
	"free_quantity" numeric(18, 6) NOT NULL,
	CONSTRAINT "metering_subscription_daily_rollups_pk" PRIMARY KEY("subscription_id","day","dimension")
);
--> statement-breakpoint
INSERT INTO "metering_monthly_rollups" ("subscription_id", "month", "cluster_id", "dimension", "amount_cents", "quantity", "free_quantity")
SELECT "subscription_id", date_trunc('month', "day")::date, "cluster_id", "dimension", sum("amount_cents"), sum("quantity"), sum("free_quantity")
FROM "metering_daily_rollups" GROUP BY 1, 2, 3, 4 ORDER BY 2, 1, 3, 4;--> statement-breakpoint
INSERT INTO "metering_subscription_daily_rollups" ("subscription_id", "day", "dimension", "amount_cents", "quantity", "free_quantity")
SELECT "subscription_id", "day", "dimension", sum("amount_cents"), sum("quantity"), sum("free_quantity")
FROM "metering_daily_rollups" GROUP BY 1, 2, 3 ORDER BY 2, 1, 3;--> statement-breakpoint
-- The free units a dimension-month's hours have taken after the rows so far, in hour order: each hour takes what
-- its allowance (the free units in effect at the hour) leaves, up to its quantity; the first starts from those
-- taken before. An hour whose allowance is lower than what is taken takes none and gives nothing back.
CREATE FUNCTION metering_free_step(taken numeric, quantity numeric, allowance numeric, taken_before numeric) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  taken := coalesce(taken, taken_before);
  RETURN least(greatest(taken, allowance), taken + quantity);
END;
$$;--> statement-breakpoint
CREATE AGGREGATE metering_free_used(numeric, numeric, numeric) (SFUNC = metering_free_step, STYPE = numeric);
