with mc as (
          select * from "metering_clusters" where "metering_clusters"."account_id" = $1 and not "metering_clusters"."finished"
        ),
        ev as (
          select "cluster_usage_changes"."cluster_id" as cluster_id, "cluster_usage_changes"."changed_at" as at, "cluster_usage_changes"."seq" as seq, "cluster_usage_changes"."query_engine_cores" as cores,
                 case "cluster_usage_changes"."usage" when 'running' then 2 when 'stopped' then 1 else 0 end as state
          from "cluster_usage_changes" join mc on "mc"."cluster_id" = "cluster_usage_changes"."cluster_id"
          where "cluster_usage_changes"."changed_at" <= $2
        ),
        seg as (
          select cluster_id, state, cores, at as a, lead(at) over (partition by cluster_id order by at, seq) as b from ev
        ),
        clipped as (
          select s.cluster_id, s.state, s.cores, "mc"."subscription_id", "mc"."account_id", "mc"."origin_at", "mc"."hour_ms", "mc"."has_backup",
                 greatest(s.a, "mc"."checked_until" - ("mc"."hour_ms" + $3) * interval '1 millisecond') as a,
                 least(coalesce(s.b, $4::timestamptz), $5::timestamptz) as b
          from seg s join mc on "mc"."cluster_id" = s.cluster_id
          where s.state > 0
        ),
        cand as (
          -- Every dimension but the query engines is charged as the hour begins, for its fixed quantity.
          select c.cluster_id, dims.dimension, c.subscription_id, c.account_id,
                 c.origin_at + (n * c.hour_ms) * interval '1 millisecond' as hour_start, max(dims.quantity) as quantity
          from clipped c
          cross join lateral generate_series(
            floor(extract(epoch from (c.a - c.origin_at)) * 1000 / c.hour_ms)::bigint,
            (ceil(extract(epoch from (c.b - c.origin_at)) * 1000 / c.hour_ms) - 1)::bigint
          ) as n
          join (values ($6::text, $7::text, $8::numeric, $9::numeric, $10::bigint, $11::numeric), ($12::text, $13::text, $14::numeric, $15::numeric, $16::bigint, $17::numeric), ($18::text, $19::text, $20::numeric, $21::numeric, $22::bigint, $23::numeric), ($24::text, $25::text, $26::numeric, $27::numeric, $28::bigint, $29::numeric), ($30::text, $31::text, $32::numeric, $33::numeric, $34::bigint, $35::numeric), ($36::text, $37::text, $38::numeric, $39::numeric, $40::bigint, $41::numeric), ($42::text, $43::text, $44::numeric, $45::numeric, $46::bigint, $47::numeric), ($48::text, $49::text, $50::numeric, $51::numeric, $52::bigint, $53::numeric), ($54::text, $55::text, $56::numeric, $57::numeric, $58::bigint, $59::numeric)) as dims(dimension, kind, quantity, free_unit_size, default_rate_e4, default_free_units)
            on dims.dimension <> 'QUERY_ENGINES'
            and (dims.kind = 'storage' or (dims.kind = 'compute' and c.state = 2) or (dims.kind = 'backup' and c.has_backup))
          where c.b > c.a
          group by c.cluster_id, dims.dimension, c.subscription_id, c.account_id, hour_start
          union all
          select s.cluster_id, 'QUERY_ENGINES', "mc"."subscription_id", "mc"."account_id", "mc"."origin_at" + (n * "mc"."hour_ms") * interval '1 millisecond',
                 round(sum(s.cores * extract(epoch from (least(coalesce(s.b, $60::timestamptz), "mc"."origin_at" + ((n + 1) * "mc"."hour_ms") * interval '1 millisecond') - greatest(s.a, "mc"."origin_at" + (n * "mc"."hour_ms") * interval '1 millisecond')))
                   * 1000 / "mc"."hour_ms"), 6)
          from seg s
          join mc on "mc"."cluster_id" = s.cluster_id
          cross join lateral generate_series(
            greatest(floor(extract(epoch from (s.a - "mc"."origin_at")) * 1000 / "mc"."hour_ms"), floor((extract(epoch from ("mc"."checked_until" - "mc"."origin_at")) * 1000 - ("mc"."hour_ms" + $61 + least($62, "mc"."hour_ms"))) / "mc"."hour_ms"), 0)::bigint,
            least(ceil(extract(epoch from (coalesce(s.b, $63::timestamptz) - "mc"."origin_at")) * 1000 / "mc"."hour_ms") - 1,
                  floor((extract(epoch from ($64::timestamptz - "mc"."origin_at")) * 1000 - least($65, "mc"."hour_ms")) / "mc"."hour_ms") - 1)::bigint
          ) as n
          where s.state = 2 and s.cores is not null
          group by s.cluster_id, "mc"."subscription_id", "mc"."account_id", n, "mc"."origin_at", "mc"."hour_ms"
          having sum(s.cores * extract(epoch from (least(coalesce(s.b, $66::timestamptz), "mc"."origin_at" + ((n + 1) * "mc"."hour_ms") * interval '1 millisecond') - greatest(s.a, "mc"."origin_at" + (n * "mc"."hour_ms") * interval '1 millisecond')))) > 0
          union all
          select q.cluster_id, $67::text, "mc"."subscription_id", "mc"."account_id", q.hour_start, q.requests / $68
          from unnest($69::uuid[], $70::timestamptz[],
                      $71::numeric[]) as q(cluster_id, hour_start, requests)
          join mc on "mc"."cluster_id" = q.cluster_id
        ),
        rates as (
          select "service_rates"."dimension", "service_rates"."rate_e4", "service_rates"."free_units", "service_rates"."effective_from",
                 lead("service_rates"."effective_from") over (partition by "service_rates"."dimension" order by "service_rates"."effective_from") as until
          from "service_rates" where "service_rates"."account_id" = $72
        ),
        fresh as (
          select c.*,
                 coalesce(r.rate_e4, dims.default_rate_e4) as rate_e4,
                 coalesce(r.free_units, dims.default_free_units) * dims.free_unit_size as allowance,
                 date_trunc('month', c.hour_start at time zone 'UTC') as month
          from cand c
          join (values ($73::text, $74::text, $75::numeric, $76::numeric, $77::bigint, $78::numeric), ($79::text, $80::text, $81::numeric, $82::numeric, $83::bigint, $84::numeric), ($85::text, $86::text, $87::numeric, $88::numeric, $89::bigint, $90::numeric), ($91::text, $92::text, $93::numeric, $94::numeric, $95::bigint, $96::numeric), ($97::text, $98::text, $99::numeric, $100::numeric, $101::bigint, $102::numeric), ($103::text, $104::text, $105::numeric, $106::numeric, $107::bigint, $108::numeric), ($109::text, $110::text, $111::numeric, $112::numeric, $113::bigint, $114::numeric), ($115::text, $116::text, $117::numeric, $118::numeric, $119::bigint, $120::numeric), ($121::text, $122::text, $123::numeric, $124::numeric, $125::bigint, $126::numeric)) as dims(dimension, kind, quantity, free_unit_size, default_rate_e4, default_free_units) on dims.dimension = c.dimension
          left join rates r
            on r.dimension = c.dimension and r.effective_from <= c.hour_start and (r.until is null or c.hour_start < r.until)
          where not exists (
            select 1 from "metering_charges" where "metering_charges"."cluster_id" = c.cluster_id and "metering_charges"."dimension" = c.dimension and "metering_charges"."hour_start" = c.hour_start
          )
        ),
        used as (
          select "metering_charges"."dimension", date_trunc('month', "metering_charges"."hour_start" at time zone 'UTC') as month, sum("metering_charges"."free_quantity") as used
          from "metering_charges"
          where "metering_charges"."account_id" = $127 and "metering_charges"."free_quantity" > 0
            and "metering_charges"."hour_start" >= (select min(month) from fresh) at time zone 'UTC'
          group by 1, 2
        ),
        priced as (
          -- In hour order each hour takes what its allowance leaves of the month's free units (metering_free_used:
          -- those taken by the hours before it); hours without an allowance take none and need no window.
          select f.cluster_id, f.dimension, f.hour_start, f.subscription_id, f.account_id, f.quantity, f.rate_e4,
                 round(greatest(0, least(f.quantity, f.allowance - coalesce(
                   metering_free_used(f.quantity, f.allowance, coalesce(u.used, 0)) over w, coalesce(u.used, 0)))), 6) as free_quantity
          from fresh f left join used u on u.dimension = f.dimension and u.month = f.month
          where f.allowance > 0
          window w as (partition by f.dimension, f.month order by f.hour_start, f.cluster_id rows between unbounded preceding and 1 preceding)
          union all
          select cluster_id, dimension, hour_start, subscription_id, account_id, quantity, rate_e4, 0 from fresh where allowance = 0
        ),
        ins as (
          insert into "metering_charges"
            ("cluster_id", "dimension", "hour_start", "subscription_id", "account_id", "quantity", "free_quantity", "rate_e4", "amount_cents", "run_id", "charged_at")
          select cluster_id, dimension, hour_start, subscription_id, account_id, quantity, free_quantity, rate_e4,
                 round((quantity - free_quantity) * rate_e4 / 100)::bigint, $128, $129
          from priced
          on conflict do nothing
          returning "subscription_id", "cluster_id", "dimension", "hour_start", "quantity", "free_quantity", "amount_cents"
        ),
        day_sums as (
          select subscription_id, cluster_id, dimension, (hour_start at time zone 'UTC')::date as day,
                 sum(amount_cents) as amount_cents, sum(quantity) as quantity, sum(free_quantity) as free_quantity, count(*) as hours
          from ins group by 1, 2, 3, 4
        ),
        daily as (
          insert into "metering_daily_rollups" as r
            ("subscription_id", "cluster_id", "dimension", "day", "amount_cents", "quantity", "free_quantity")
          select subscription_id, cluster_id, dimension, day, amount_cents, quantity, free_quantity from day_sums
          on conflict ("subscription_id", "day", "cluster_id", "dimension") do update
            set "amount_cents" = "r"."amount_cents" + excluded."amount_cents", "quantity" = "r"."quantity" + excluded."quantity", "free_quantity" = "r"."free_quantity" + excluded."free_quantity"
        ),
        monthly as (
          insert into "metering_monthly_rollups" as r
            ("subscription_id", "month", "cluster_id", "dimension", "amount_cents", "quantity", "free_quantity")
          select subscription_id, date_trunc('month', day)::date, cluster_id, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
          from day_sums group by 1, 2, 3, 4
          on conflict ("subscription_id", "month", "cluster_id", "dimension") do update
            set "amount_cents" = "r"."amount_cents" + excluded."amount_cents", "quantity" = "r"."quantity" + excluded."quantity", "free_quantity" = "r"."free_quantity" + excluded."free_quantity"
        ),
        subscription_daily as (
          insert into "metering_subscription_daily_rollups" as r
            ("subscription_id", "day", "dimension", "amount_cents", "quantity", "free_quantity")
          select subscription_id, day, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
          from day_sums group by 1, 2, 3
          on conflict ("subscription_id", "day", "dimension") do update
            set "amount_cents" = "r"."amount_cents" + excluded."amount_cents", "quantity" = "r"."quantity" + excluded."quantity", "free_quantity" = "r"."free_quantity" + excluded."free_quantity"
        )
        select subscription_id, sum(amount_cents)::text as cents, sum(hours)::int as hours
        from day_sums group by subscription_id order by subscription_id

-- parameters
-- $1 = "00000000-0000-4000-8000-00000000000a"
-- $2 = "2026-03-01T12:34:56.000Z"
-- $3 = 300000
-- $4 = "2026-03-01T12:34:56.000Z"
-- $5 = "2026-03-01T12:34:56.000Z"
-- $6 = "BI_SERVER"
-- $7 = "compute"
-- $8 = "8"
-- $9 = "1"
-- $10 = 600
-- $11 = "0"
-- $12 = "QUERY_ENGINES"
-- $13 = "compute"
-- $14 = "80"
-- $15 = "1"
-- $16 = 600
-- $17 = "0"
-- $18 = "DATA_PROCESS"
-- $19 = "compute"
-- $20 = "16"
-- $21 = "16"
-- $22 = 500
-- $23 = "50"
-- $24 = "PERIPHERAL_SERVICES"
-- $25 = "compute"
-- $26 = "1"
-- $27 = "1"
-- $28 = 2500
-- $29 = "0"
-- $30 = "LOCAL_STORAGE"
-- $31 = "storage"
-- $32 = "1.369863"
-- $33 = "1"
-- $34 = 1000
-- $35 = "200"
-- $36 = "PERSISTENT_STORAGE"
-- $37 = "storage"
-- $38 = "0.684932"
-- $39 = "1"
-- $40 = 1200
-- $41 = "0"
-- $42 = "PERSISTENT_STORAGE_REQUESTS"
-- $43 = "requests"
-- $44 = "20"
-- $45 = "1"
-- $46 = 50
-- $47 = "0"
-- $48 = "BACKUP_STORAGE"
-- $49 = "backup"
-- $50 = "0.684932"
-- $51 = "1"
-- $52 = 500
-- $53 = "0"
-- $54 = "BACKUP_DATA_TRANSFER"
-- $55 = "backup"
-- $56 = "1"
-- $57 = "1"
-- $58 = 200
-- $59 = "0"
-- $60 = "2026-03-01T12:34:56.000Z"
-- $61 = 300000
-- $62 = 300000
-- $63 = "2026-03-01T12:34:56.000Z"
-- $64 = "2026-03-01T12:34:56.000Z"
-- $65 = 300000
-- $66 = "2026-03-01T12:34:56.000Z"
-- $67 = "PERSISTENT_STORAGE_REQUESTS"
-- $68 = 1000
-- $69 = ["00000000-0000-4000-8000-0000000000c1"]
-- $70 = ["2026-03-01T11:00:00.000Z"]
-- $71 = [18250]
-- $72 = "00000000-0000-4000-8000-00000000000a"
-- $73 = "BI_SERVER"
-- $74 = "compute"
-- $75 = "8"
-- $76 = "1"
-- $77 = 600
-- $78 = "0"
-- $79 = "QUERY_ENGINES"
-- $80 = "compute"
-- $81 = "80"
-- $82 = "1"
-- $83 = 600
-- $84 = "0"
-- $85 = "DATA_PROCESS"
-- $86 = "compute"
-- $87 = "16"
-- $88 = "16"
-- $89 = 500
-- $90 = "50"
-- $91 = "PERIPHERAL_SERVICES"
-- $92 = "compute"
-- $93 = "1"
-- $94 = "1"
-- $95 = 2500
-- $96 = "0"
-- $97 = "LOCAL_STORAGE"
-- $98 = "storage"
-- $99 = "1.369863"
-- $100 = "1"
-- $101 = 1000
-- $102 = "200"
-- $103 = "PERSISTENT_STORAGE"
-- $104 = "storage"
-- $105 = "0.684932"
-- $106 = "1"
-- $107 = 1200
-- $108 = "0"
-- $109 = "PERSISTENT_STORAGE_REQUESTS"
-- $110 = "requests"
-- $111 = "20"
-- $112 = "1"
-- $113 = 50
-- $114 = "0"
-- $115 = "BACKUP_STORAGE"
-- $116 = "backup"
-- $117 = "0.684932"
-- $118 = "1"
-- $119 = 500
-- $120 = "0"
-- $121 = "BACKUP_DATA_TRANSFER"
-- $122 = "backup"
-- $123 = "1"
-- $124 = "1"
-- $125 = 200
-- $126 = "0"
-- $127 = "00000000-0000-4000-8000-00000000000a"
-- $128 = "00000000-0000-4000-8000-0000000000ff"
-- $129 = "2026-03-01T12:34:56.000Z"
