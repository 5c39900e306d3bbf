/**
 * Every table, for the Drizzle client's typing and drizzle-kit. Each module (and adapter, and the HTTP layer) declares
 * its own tables beside its code and is the only one to use them; other modules read its published views or call its
 * service (docs/architecture.md, "Data ownership"). Foreign keys between two owners' tables are kept by the
 * migrations: a schema file names no other owner's table.
 */
export * from '../modules/auth/auth.schema.js';
export * from '../modules/users/users.schema.js';
export * from '../modules/mail/mail.schema.js';
export * from '../modules/ledger/ledger.schema.js';
export * from '../modules/subscriptions/subscriptions.schema.js';
export * from '../modules/billing/billing.schema.js';
export * from '../modules/clusters/clusters.schema.js';
export * from '../modules/cluster-sql/cluster-sql.schema.js';
export * from '../modules/cluster-auto-stop/cluster-auto-stop.schema.js';
export * from '../modules/metering/metering.schema.js';
export * from '../modules/budgets/budgets.schema.js';
export * from '../modules/auto-top-up/auto-top-up.schema.js';
export * from '../modules/admin/admin.schema.js';
export * from '../modules/notices/notices.schema.js';
export * from '../modules/api-tokens/api-tokens.schema.js';
export * from '../modules/webhooks/webhooks.schema.js';
export * from '../adapters/payments/sandbox/sandbox.schema.js';
export * from '../adapters/cloud/simulated/sim-cloud.schema.js';
export * from '../adapters/cloud/simulated/sim-tickets.schema.js';
export * from '../http/rate-limit.schema.js';
export * from '../http/idempotency.schema.js';
