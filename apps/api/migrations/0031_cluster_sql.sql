-- The portal's own credential for each cluster's SQL endpoint (console queries), sealed with the server secret.
ALTER TABLE "clusters" ADD COLUMN "sealed_sql_credential" text;--> statement-breakpoint
-- The simulated cloud's SQL users: the customer's password and the portal's credential, each only as a slow hash.
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "sql_password_hash" text;--> statement-breakpoint
ALTER TABLE "sim_cloud_stacks" ADD COLUMN "sql_portal_hash" text;
