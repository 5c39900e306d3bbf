-- Who may do what in each cluster's Kumo Manager: one row per cluster and person whose level someone changed; a
-- person without a row has their role's default (the owner Full kmuser, admins Full admin, members No admin access).
-- Owned by the clusters module; user_id names a person of the auth module, kept by this foreign key.
CREATE TABLE "cluster_manager_access" (
	"cluster_id" uuid NOT NULL REFERENCES "clusters"("id"),
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"access_level" text NOT NULL,
	"updated_by_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cluster_manager_access_cluster_id_user_id_pk" PRIMARY KEY ("cluster_id", "user_id"),
	CONSTRAINT "cluster_manager_access_level_check" CHECK ("access_level" in ('FULL_ADMIN', 'FULL_KMUSER', 'LIMITED', 'NO_ADMIN_ACCESS'))
);
