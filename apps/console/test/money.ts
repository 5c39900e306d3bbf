import {
  AUTO_TOP_UP_DEFAULTS,
  type AutoTopUp,
  type BalanceOutlook,
  type Budget,
  type Subscription,
  type Transaction,
  type TransactionPage,
} from '@kumo/contract';

/** A subscription as GET /api/subscription/list returns it. */
export function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    subscription_id: '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f',
    subscription_name: 'Analytics',
    subscription_type: 'PREPAID',
    remark: 'Reporting for the finance team',
    status: 'ACTIVE',
    total_amount: 1734,
    balance: 1734,
    credits: 500,
    credits_expire_at: '2026-04-09T09:00:00.000Z',
    consumed_amount: 0,
    forecasted_amount: 0,
    active_cluster_count: 0,
    clusters: [],
    created_by: 'Ada Lovelace',
    subscribed_by_email_id: 'ada@example.com',
    created_at: '2026-03-10T09:00:00.000Z',
    ...overrides,
  };
}

/** What GET /api/subscription/consumption/outlook/{id} says of a subscription with one sign-up grant and nothing running. */
export function balanceOutlook(overrides: Partial<BalanceOutlook> = {}): BalanceOutlook {
  return {
    subscription_id: '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f',
    balance: 1734,
    paid_funds: 1234,
    free_credits: 500,
    free_credit_grants: [
      { granted_at: '2026-03-10T09:00:00.000Z', amount: 500, remaining: 500, expires_at: '2026-04-09T09:00:00.000Z', days_left: 29 },
    ],
    hourly_rate: 0,
    runway_hours: null,
    overdue_limit: 0,
    hours_until_stop: null,
    scheduled_rate_changes: [],
    ...overrides,
  };
}

let transactionCounter = 0;

/** A transaction as GET /api/credit/view/credit-transactions/{id} returns it. */
export function transaction(overrides: Partial<Transaction> = {}): Transaction {
  transactionCounter += 1;
  return {
    transaction_id: `0000${String(transactionCounter).padStart(4, '0')}-1111-4222-8333-444455556666`,
    receipt_id: null,
    transaction_date: '2026-03-10T09:00:00.000Z',
    category: 'USAGE',
    type: 'DEBIT',
    description: 'Service usage',
    remark: '',
    amount: -1.5,
    balance_after: 100,
    transaction_status: 'SUCCESSFUL',
    ...overrides,
  };
}

export function transactionPage(content: Transaction[], totalPages = 1, unpaidCheckouts: Transaction[] = []): TransactionPage {
  return { content, totalPages, unpaid_checkouts: unpaidCheckouts };
}

/** What GET /api/subscription/{id}/budget says: no budget by default (monthly_amount null, the default thresholds). */
export function budget(overrides: Partial<Budget> = {}): Budget {
  return {
    subscription_id: '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f',
    monthly_amount: null,
    thresholds: [50, 75, 90, 100],
    alert_on_forecast: false,
    stop_clusters_at_limit: false,
    month_to_date: 0,
    forecast: 0,
    start_headroom_per_hour: null,
    alerts: [],
    ...overrides,
  };
}

/** What GET /api/subscription/{id}/auto-top-up says of a subscription that never saved it: off, no card, the defaults. */
export function autoTopUp(overrides: Partial<AutoTopUp> = {}): AutoTopUp {
  return {
    subscription_id: '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f',
    enabled: false,
    ...AUTO_TOP_UP_DEFAULTS,
    status: 'OFF',
    payment_method: null,
    month_to_date: 0,
    last_attempt: null,
    ...overrides,
  };
}
