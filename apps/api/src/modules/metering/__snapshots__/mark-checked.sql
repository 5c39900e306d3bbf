update "metering_clusters"
    set "checked_until" = $1,
        "finished" = exists (
          select 1 from "cluster_usage_changes"
          where "cluster_usage_changes"."cluster_id" = "metering_clusters"."cluster_id" and "cluster_usage_changes"."deleted"
            and "cluster_usage_changes"."changed_at" < $2::timestamptz - ("metering_clusters"."hour_ms" + $3) * interval '1 millisecond'
        )
    where "metering_clusters"."account_id" = $4 and not "metering_clusters"."finished"

-- parameters
-- $1 = "2026-03-01T12:34:56.000Z"
-- $2 = "2026-03-01T12:34:56.000Z"
-- $3 = 300000
-- $4 = "00000000-0000-4000-8000-00000000000a"
