-- Who is reconciling a cluster with the cloud, and until when. A job claims the lease with one short UPDATE, talks to
-- the cloud outside any transaction, and writes what it learnt only while the lease is still its own; a lease left by
-- a process that died runs out and the next job takes the cluster over.
ALTER TABLE "clusters" ADD COLUMN "reconcile_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "reconcile_lease_holder" text;
