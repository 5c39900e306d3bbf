-- Each cluster's network access list: anywhere, or only the ranges listed. A cluster without a row (made before
-- the list existed) is open to anywhere. `version` counts the changes and `cloud_version` the last one the cloud's
-- own firewall (the AWS security group) was brought to, so a change the cloud missed is carried later.
CREATE TABLE "cluster_network_access" (
	"cluster_id" uuid PRIMARY KEY NOT NULL REFERENCES "clusters"("id"),
	"allow_anywhere" boolean NOT NULL,
	"allowed" jsonb NOT NULL,
	"version" integer NOT NULL,
	"cloud_version" integer NOT NULL,
	"updated_by_user_id" uuid,
	"updated_by_label" text,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cluster_network_access_allowed_check" CHECK (jsonb_typeof("allowed") = 'array' AND jsonb_array_length("allowed") <= 50)
);--> statement-breakpoint
CREATE INDEX "cluster_network_access_cloud_idx" ON "cluster_network_access" ("cluster_id") WHERE "cloud_version" < "version";
