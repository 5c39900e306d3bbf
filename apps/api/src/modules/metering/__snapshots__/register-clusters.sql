insert into "metering_clusters" ("cluster_id", "subscription_id", "account_id", "origin_at", "hour_ms", "has_backup", "checked_until", "requests_counted_until", "finished")
    select "cluster_directory"."cluster_id", "cluster_directory"."subscription_id", "cluster_directory"."account_id", "cluster_directory"."created_at", $1, "cluster_directory"."has_backup", "cluster_directory"."created_at", "cluster_directory"."created_at", false
    from "cluster_directory"
    where not exists (select 1 from "metering_clusters" where "metering_clusters"."cluster_id" = "cluster_directory"."cluster_id")
    on conflict do nothing

-- parameters
-- $1 = 3600000
