import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../../../test/api';
import { creditAnalysis, dailyCost } from '../../../test/cost';
import { autoTopUp, balanceOutlook, budget, subscription, transactionPage } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { enterCustomerView, saveTokens, saveUser } from '../../lib/session';
import { SubscriptionsPage } from './subscriptions-page';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});
vi.setConfig({ testTimeout: 20_000 });

const ANALYTICS = subscription();
const staff = userDetail({ userName: 'Sue Support', emailId: 'sue@kumo.test', role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null });
const PAUSED = autoTopUp({
  enabled: true,
  status: 'PAUSED_AFTER_FAILURE',
  payment_method: { brand: 'visa', last4: '0341', exp_month: 4, exp_year: 2030 },
  last_attempt: { at: '2026-11-20T10:00:00.000Z', amount: 100, outcome: 'DECLINED', message: 'Your card was declined.' },
});
const viewed = userDetail({ userSwitched: { userName: 'Sue Support', emailId: 'sue@kumo.test', expiresAt: '2026-03-10T09:30:00.000Z' } });

/** Signed in as the customer, or as staff viewing the customer's console (userSwitched). */
function renderPage(asStaffView: boolean) {
  saveTokens('staff-jwt', 'staff-refresh');
  saveUser(asStaffView ? staff : userDetail());
  if (asStaffView) {
    enterCustomerView('view-jwt', 'view-refresh');
    saveUser(viewed);
  }
  const id = ANALYTICS.subscription_id;
  mockApi({
    'GET /api/subscription/list': () => jsonResponse(200, [ANALYTICS]),
    'GET /api/subscription/details': () => jsonResponse(200, ANALYTICS),
    [`GET /api/credit/view/credit-transactions/${id}`]: () => jsonResponse(200, transactionPage([])),
    [`GET /api/subscription/${id}/budget`]: () => jsonResponse(200, budget({ monthly_amount: 500, month_to_date: 120, forecast: 400 })),
    [`GET /api/subscription/${id}/auto-top-up`]: () => jsonResponse(200, PAUSED),
    [`GET /api/subscription/consumption/outlook/${id}`]: () => jsonResponse(200, balanceOutlook({ subscription_id: id })),
    [`GET /api/subscription/consumption/credit-analysis/${id}`]: () =>
      jsonResponse(200, creditAnalysis('2026-11', [dailyCost('2026-11-01')])),
  });
  renderRoutes([{ path: '/subscriptions/:subscriptionId', element: <SubscriptionsPage /> }], `/subscriptions/${id}`);
}

describe("subscriptions in a staff member's read-only view of the customer's console", () => {
  it("offer the customer New, Add Funds, Delete and the budget's Edit and Remove; the view none of them (the server refuses them: READ_ONLY_VIEW)", async () => {
    renderPage(false);
    await screen.findByRole('heading', { level: 2, name: ANALYTICS.subscription_name });
    expect(screen.getByRole('button', { name: 'New' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Funds' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `More actions for ${ANALYTICS.subscription_name}` })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Edit budget' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove budget' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Top up now' })).toBeInTheDocument();
    for (const name of ['Resume top-up', 'Replace card', 'Remove card', 'Edit settings'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    cleanup();
    localStorage.clear();

    renderPage(true);
    await screen.findByRole('heading', { level: 2, name: ANALYTICS.subscription_name });
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Funds' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `More actions for ${ANALYTICS.subscription_name}` })).not.toBeInTheDocument();
    // The budget is shown as it is, with neither Edit nor Remove.
    expect(await screen.findByRole('meter', { name: 'Spend this month against the budget' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit budget' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove budget' })).not.toBeInTheDocument();
    // Automatic top-up too: the card and why it is paused, and nothing to press.
    expect(await screen.findByText('Visa •••• 0341, expires 04/2030')).toBeInTheDocument();
    expect(screen.getByText('Automatic top-up is paused')).toBeInTheDocument();
    expect(screen.getByText(/did not go through: Your card was declined\./)).toBeInTheDocument();
    for (const name of ['Top up now', 'Resume top-up', 'Replace card', 'Save a card', 'Remove card', 'Edit settings'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });
});
