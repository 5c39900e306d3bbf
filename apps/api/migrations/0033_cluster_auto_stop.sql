-- Idle auto-stop and restart when funded (modules/cluster-auto-stop). A cluster without a settings row has auto-stop
-- off: the clusters made before it existed change nothing unannounced; a new cluster gets its row, 60 minutes, when
-- its creation is recorded.
CREATE TABLE "cluster_auto_stop_settings" (
	"cluster_id" uuid PRIMARY KEY NOT NULL REFERENCES "clusters"("id"),
	"account_id" uuid NOT NULL,
	"idle_minutes" integer,
	"restart_when_funded" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cluster_auto_stop_settings_idle_check" CHECK ("idle_minutes" IS NULL OR "idle_minutes" BETWEEN 10 AND 1440)
);--> statement-breakpoint
-- Each stop the system made for a rule (idle, overdue balance, a budget's hard cap) and why: what restart when funded
-- starts again, and the hours "saved this month" counts. ended_at is the next start (or deletion) request.
CREATE TABLE "cluster_system_stops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_id" uuid NOT NULL REFERENCES "clusters"("id"),
	"account_id" uuid NOT NULL,
	"cause" text NOT NULL,
	"reason" text NOT NULL,
	"stopped_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"restarted_at" timestamp with time zone,
	CONSTRAINT "cluster_system_stops_cause_check" CHECK ("cause" in ('IDLE', 'OVERDUE', 'BUDGET_CAP'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "cluster_system_stops_open_idx" ON "cluster_system_stops" ("cluster_id") WHERE "ended_at" IS NULL;--> statement-breakpoint
CREATE INDEX "cluster_system_stops_cluster_idx" ON "cluster_system_stops" ("cluster_id", "stopped_at");
