import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { CustomerDetail, RateCard, Subscription } from '@kumo/contract';

export const CUSTOMER_ID = '11111111-1111-4111-8111-111111111111';
export const SUBSCRIPTION_ID = '22222222-2222-4222-8222-222222222222';
export const OPERATION_ID = '33333333-3333-4333-8333-333333333333';

export function customerDetail(overrides: Partial<CustomerDetail> = {}): CustomerDetail {
  return {
    user_id: CUSTOMER_ID,
    account_id: '44444444-4444-4444-8444-444444444444',
    user_name: 'Ada Lovelace',
    email_id: 'ada@example.com',
    created_at: '2026-01-05T10:00:00.000Z',
    total_subscription_balance: 1234.5,
    outstanding_limit: 250,
    admin_access: false,
    km_user_role: 'Integration',
    overview: { free_units: { DATA_PROCESS: 10, LOCAL_STORAGE: 50 }, kumo_ea_version_enabled: false },
    added_users: [],
    ...overrides,
  };
}

export function adminSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    subscription_id: SUBSCRIPTION_ID,
    subscription_name: 'Analytics',
    subscription_type: 'PREPAID',
    remark: '',
    status: 'ACTIVE',
    total_amount: 500,
    balance: 500,
    credits: 0,
    credits_expire_at: null,
    consumed_amount: 0,
    forecasted_amount: 0,
    active_cluster_count: 0,
    clusters: [],
    created_by: 'Ada Lovelace',
    subscribed_by_email_id: 'ada@example.com',
    created_at: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

export function rateCard(): RateCard {
  return {
    effective_date: '2026-01-01T00:00:00.000Z',
    service_rate: { BI_SERVER: 0.5, QUERY_ENGINES: 0.4, DATA_PROCESS: 0.3 } as RateCard['service_rate'],
    free_units: { DATA_PROCESS: 10, LOCAL_STORAGE: 50 },
    rates: [
      { dimension: 'BI_SERVER', rate: 0.5, free_units: 0, unit: 'per core per hour' },
      { dimension: 'DATA_PROCESS', rate: 0.3, free_units: 10, unit: 'per core per hour' },
      { dimension: 'LOCAL_STORAGE', rate: 0.1, free_units: 50, unit: 'per GB-month' },
    ],
  };
}

/** Change Service Rates, once the current rates it starts from are in (until then it is disabled). */
export async function changeRatesButton(): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name: 'Change Service Rates' });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}
