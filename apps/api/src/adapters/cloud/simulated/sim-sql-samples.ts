/**
 * The sample dataset every new simulated cluster holds, so the console has something to query: schema `samples`, a
 * few related tables and about 100,000 rows, made by SQL from DuckDB's range() (nothing is downloaded). The values
 * come from hash(), so every cluster has the same data and a query's answer can be known in advance.
 */
export const SAMPLE_ROWS = { regions: 5, customers: 2000, products: 100, orders: 100_000 } as const;

export const SAMPLE_DATASET_SQL = `
CREATE SCHEMA samples;
CREATE TABLE samples.regions AS
  SELECT * FROM (VALUES (1, 'North America'), (2, 'South America'), (3, 'Europe'), (4, 'Asia Pacific'), (5, 'Africa'))
  AS r(region_id, region_name);
CREATE TABLE samples.customers AS
  SELECT range + 1 AS customer_id,
         'Customer ' || lpad(CAST(range + 1 AS VARCHAR), 4, '0') AS customer_name,
         CAST(range % ${SAMPLE_ROWS.regions} + 1 AS INTEGER) AS region_id,
         DATE '2024-01-01' + CAST(hash(range, 'signup') % 730 AS INTEGER) AS signed_up_on
  FROM range(${SAMPLE_ROWS.customers});
CREATE TABLE samples.products AS
  SELECT range + 1 AS product_id,
         ['Compute', 'Storage', 'Analytics', 'Networking'][CAST(range % 4 + 1 AS INTEGER)] || ' plan ' || CAST(range + 1 AS VARCHAR) AS product_name,
         ['Compute', 'Storage', 'Analytics', 'Networking'][CAST(range % 4 + 1 AS INTEGER)] AS category,
         CAST((hash(range, 'price') % 50000) / 100.0 + 5 AS DECIMAL(10, 2)) AS unit_price
  FROM range(${SAMPLE_ROWS.products});
CREATE TABLE samples.orders AS
  SELECT range + 1 AS order_id,
         CAST(hash(range, 'customer') % ${SAMPLE_ROWS.customers} + 1 AS BIGINT) AS customer_id,
         CAST(hash(range, 'product') % ${SAMPLE_ROWS.products} + 1 AS BIGINT) AS product_id,
         CAST(hash(range, 'quantity') % 10 + 1 AS INTEGER) AS quantity,
         TIMESTAMP '2025-01-01' + to_seconds(CAST(hash(range, 'when') % 31536000 AS BIGINT)) AS ordered_at
  FROM range(${SAMPLE_ROWS.orders});
`;
