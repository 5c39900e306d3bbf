-- Sizes of the query engines and how many run (docs/clusters.md, Sizes). Every cluster made before had M × 5, the
-- defaults. resize_to_* hold the shape an online resize is moving to until the cloud reports it reached.
ALTER TABLE "clusters" ADD COLUMN "size" text DEFAULT 'M' NOT NULL;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "query_engines" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "resize_to_size" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "resize_to_engines" integer;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "resize_command_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_size_check" CHECK ("size" IN ('XS', 'S', 'M', 'L', 'XL') AND "query_engines" BETWEEN 1 AND 5);--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_resize_to_check" CHECK (("resize_to_size" IS NULL) = ("resize_to_engines" IS NULL));--> statement-breakpoint
CREATE INDEX "clusters_resizing_idx" ON "clusters" ("id") WHERE "resize_to_size" IS NOT NULL;--> statement-breakpoint
-- The query engines' cores in effect from each audit entry on (the shape then running, or to run at the next start);
-- NULL on the entries written before sizes, which ran M × 5: 80 cores.
ALTER TABLE "cluster_audit_logs" ADD COLUMN "query_engine_cores" integer;--> statement-breakpoint
-- The simulated cloud's query engines: their instance type and count, and the shape a resize started from.
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "engine_type" text DEFAULT 'r6i.4xlarge' NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "engine_count" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "resize_from_type" text;--> statement-breakpoint
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "resize_from_count" integer;--> statement-breakpoint
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "resized_at" timestamp with time zone;--> statement-breakpoint
-- The published read models gain the shape (columns appended, so the views are replaced in place).
CREATE OR REPLACE VIEW "cluster_directory" AS
SELECT
	c."id" AS "cluster_id",
	c."account_id",
	c."subscription_id",
	c."name",
	c."status",
	c."status_updated_at",
	c."backup_region" IS NOT NULL AS "has_backup",
	c."created_at",
	c."deleted_at",
	CASE
		WHEN c."deleted_at" IS NOT NULL OR c."status" IN ('FAILED', 'DELETED', 'DELETED_PARTIALLY', 'DEPLOYING') THEN 'none'
		WHEN c."status" IN ('ONLINE', 'STARTING', 'STOPPING') THEN 'running'
		ELSE 'stopped'
	END AS "usage",
	c."size",
	c."query_engines"
FROM "clusters" c;--> statement-breakpoint
-- A completed online resize changes what runs: from it on, the new cores are charged.
CREATE OR REPLACE VIEW "cluster_usage_changes" AS
SELECT
	l."cluster_id",
	l."seq",
	l."created_at" AS "changed_at",
	CASE
		WHEN l."event" IN ('CLUSTER_RESOURCES_CREATED', 'CLUSTER_START_REQUESTED', 'CLUSTER_STARTED', 'CLUSTER_DEPLOYED', 'CLUSTER_RESIZED') THEN 'running'
		WHEN l."event" = 'CLUSTER_STOPPED' THEN 'stopped'
		ELSE 'none'
	END AS "usage",
	l."event" = 'CLUSTER_DELETED' AS "deleted",
	coalesce(l."query_engine_cores", 80) AS "query_engine_cores"
FROM "cluster_audit_logs" l
WHERE l."event" IN (
	'CLUSTER_RESOURCES_CREATED', 'CLUSTER_START_REQUESTED', 'CLUSTER_STARTED', 'CLUSTER_DEPLOYED', 'CLUSTER_RESIZED',
	'CLUSTER_STOPPED',
	'CLUSTER_DEPLOYMENT_FAILED', 'CLUSTER_DELETED'
);
