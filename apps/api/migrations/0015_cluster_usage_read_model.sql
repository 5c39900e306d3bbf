-- The clusters module's published read model of what its clusters use, for metering (and any other reader) to
-- read instead of the clusters' own tables. Plain views, without window functions or aggregates, so PostgreSQL
-- inlines them into the reader's statement: a join on cluster_id still reaches the tables' indexes.
--
-- cluster_directory: one row per cluster with what a bill names, and `usage`, what the cluster uses now by its
-- status: 'running' (nodes run: compute and storage), 'stopped' (storage only) or 'none' (deployment not done,
-- failed, or deleted).
CREATE VIEW "cluster_directory" AS
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
	END AS "usage"
FROM "clusters" c;--> statement-breakpoint
-- cluster_usage_changes: the audit events that change what a cluster uses, in the order they were written (seq
-- orders events stamped at the same instant), with the usage from then on; `deleted` marks the deletion, after
-- which the cluster never uses anything again. Audit rows are stamped before their transaction commits, so a
-- reader that follows them looks a few minutes behind its last look again.
CREATE VIEW "cluster_usage_changes" AS
SELECT
	l."cluster_id",
	l."seq",
	l."created_at" AS "changed_at",
	CASE
		WHEN l."event" IN ('CLUSTER_RESOURCES_CREATED', 'CLUSTER_START_REQUESTED', 'CLUSTER_STARTED', 'CLUSTER_DEPLOYED') THEN 'running'
		WHEN l."event" = 'CLUSTER_STOPPED' THEN 'stopped'
		ELSE 'none'
	END AS "usage",
	l."event" = 'CLUSTER_DELETED' AS "deleted"
FROM "cluster_audit_logs" l
WHERE l."event" IN (
	'CLUSTER_RESOURCES_CREATED', 'CLUSTER_START_REQUESTED', 'CLUSTER_STARTED', 'CLUSTER_DEPLOYED',
	'CLUSTER_STOPPED',
	'CLUSTER_DEPLOYMENT_FAILED', 'CLUSTER_DELETED'
);
