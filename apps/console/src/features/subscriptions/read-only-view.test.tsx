import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../../../test/api';
import { creditAnalysis, dailyCost } from '../../../test/cost';
import { balanceOutlook, budget, subscription, transactionPage } from '../../../test/money';
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
  });
});
