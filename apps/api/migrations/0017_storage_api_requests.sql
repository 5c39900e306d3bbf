-- Storage API requests: metering counts, per cluster, the billable hours whose persistent-storage requests it has
-- asked the cloud for. Clusters followed before this count from their last check on: earlier hours are not charged.
ALTER TABLE "metering_clusters" ADD COLUMN "requests_counted_until" timestamp with time zone;--> statement-breakpoint
UPDATE "metering_clusters" SET "requests_counted_until" = "checked_until";--> statement-breakpoint
ALTER TABLE "metering_clusters" ALTER COLUMN "requests_counted_until" SET NOT NULL;
