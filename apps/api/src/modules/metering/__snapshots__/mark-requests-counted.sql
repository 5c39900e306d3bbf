update "metering_clusters" set "requests_counted_until" = greatest("metering_clusters"."requests_counted_until", q.until)
    from unnest($1::uuid[], $2::timestamptz[]) as q(cluster_id, until)
    where "metering_clusters"."cluster_id" = q.cluster_id

-- parameters
-- $1 = ["00000000-0000-4000-8000-0000000000c1"]
-- $2 = ["2026-03-01T12:34:56.000Z"]
