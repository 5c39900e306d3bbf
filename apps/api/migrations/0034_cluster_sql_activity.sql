-- Queries sent straight to a cluster on AWS reach the portal through its endpoint's activity read. Each record keeps
-- the endpoint's own id, so a record pulled twice (two portal processes, a pull retried) is kept once; each cluster's
-- cursor says where the next pull reads on, and moves only from the value a pull started from; read_at is when its
-- endpoint was last read to the end, which auto-stop waits for before it calls the cluster idle.
ALTER TABLE "cluster_queries" ADD COLUMN "endpoint_record_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "cluster_queries_endpoint_record_idx" ON "cluster_queries" ("cluster_id", "endpoint_record_id") WHERE "endpoint_record_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "cluster_sql_activity_cursors" (
	"cluster_id" uuid PRIMARY KEY NOT NULL REFERENCES "clusters"("id"),
	"cursor" text,
	"read_at" timestamp with time zone NOT NULL
);
