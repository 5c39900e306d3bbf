-- Published read models: each module reads another module's data only through views like these (or through its
-- service), never its tables (docs/decisions/0022-data-ownership.md). Simple projections, so the planner inlines them
-- and a join through a view costs what a join on the table did.

-- The auth module's: people, accounts and memberships.
CREATE VIEW "user_directory" AS
  SELECT "id", "email", "name", "system_role", "created_at" FROM "users";
--> statement-breakpoint
CREATE VIEW "account_directory" AS
  SELECT "id", "owner_user_id", "created_at", "kumo_ea_version_enabled", "km_admin_access", "km_user_role" FROM "accounts";
--> statement-breakpoint
CREATE VIEW "account_member_directory" AS
  SELECT "account_id", "user_id", "role", "created_at" FROM "account_members";
--> statement-breakpoint
-- The subscriptions module's: every subscription, deleted ones included, with its balance.
CREATE VIEW "subscription_directory" AS
  SELECT "id", "account_id", "name", "type", "status", "balance_cents", "active_cluster_count", "created_by_user_id",
         "created_at", "deleted_at"
  FROM "subscriptions";
