-- Every query sent to a cluster's SQL engine, through the console or the cluster's endpoint, and every refused attempt
-- (wrong password, address not allowed): the cluster's query history, and what kept it awake for idle auto-stop.
CREATE TABLE "cluster_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_id" uuid NOT NULL REFERENCES "clusters"("id"),
	"account_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"row_count" integer,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"user_id" uuid,
	"user_label" text NOT NULL,
	"client_address" text,
	"user_agent" text,
	"query" text NOT NULL,
	"error" text,
	CONSTRAINT "cluster_queries_status_check" CHECK ("status" in ('OK', 'FAILED', 'REFUSED')),
	CONSTRAINT "cluster_queries_source_check" CHECK ("source" in ('CONSOLE', 'ENDPOINT'))
);--> statement-breakpoint
CREATE INDEX "cluster_queries_cluster_idx" ON "cluster_queries" ("cluster_id", "started_at" DESC);--> statement-breakpoint
-- What auto-stop reads: the queries that count as activity (a refused attempt does not).
CREATE VIEW "cluster_query_activity" AS
	SELECT "cluster_id", "started_at", "source", "user_label", "client_address", "user_agent"
	FROM "cluster_queries" WHERE "status" <> 'REFUSED';
