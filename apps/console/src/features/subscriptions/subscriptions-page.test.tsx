import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, METERING_MESSAGES, type PaymentStatus } from '@kumo/contract';
import { errorResponse, jsonResponse, pathOf } from '../../../test/api';
import { creditAnalysis, dailyCost } from '../../../test/cost';
import { autoTopUp, balanceOutlook, budget, subscription, transaction, transactionPage } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { documentTitle } from '../../app/document-title';
import { getActiveNames } from '../../lib/active-names';
import { SubscriptionsPage } from './subscriptions-page';

const ANALYTICS = subscription();
const STAGING = subscription({
  subscription_id: '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60',
  subscription_name: 'Staging',
  remark: '',
  total_amount: 99.99,
  balance: 99.99,
  credits: 0,
  credits_expire_at: null,
});

type Handlers = Record<string, (body: unknown) => Response>;

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

/** The API as the page sees it: the list, each subscription's details and history, and whatever a test adds. */
function renderPage(path: string, list = [ANALYTICS, STAGING], extra: Handlers = {}) {
  const handlers: Handlers = {
    'GET /api/subscription/list': () => jsonResponse(200, list),
    ...Object.fromEntries(
      list.map((item) => [
        `GET /api/credit/view/credit-transactions/${item.subscription_id}`,
        () => jsonResponse(200, transactionPage([])),
      ]),
    ),
    ...Object.fromEntries(
      list.map((item) => [
        `GET /api/subscription/${item.subscription_id}/budget`,
        () => jsonResponse(200, budget({ subscription_id: item.subscription_id })),
      ]),
    ),
    ...Object.fromEntries(
      list.map((item) => [
        `GET /api/subscription/${item.subscription_id}/auto-top-up`,
        () => jsonResponse(200, autoTopUp({ subscription_id: item.subscription_id })),
      ]),
    ),
    ...Object.fromEntries(
      list.map((item) => [
        `GET /api/subscription/consumption/outlook/${item.subscription_id}`,
        () =>
          jsonResponse(
            200,
            balanceOutlook({
              subscription_id: item.subscription_id,
              balance: item.total_amount,
              paid_funds: item.total_amount - item.credits,
              free_credits: item.credits,
              free_credit_grants: item.credits > 0 ? balanceOutlook().free_credit_grants : [],
            }),
          ),
      ]),
    ),
    ...Object.fromEntries(
      list.map((item) => [
        `GET /api/subscription/consumption/credit-analysis/${item.subscription_id}`,
        () => jsonResponse(200, creditAnalysis('2026-11', [dailyCost('2026-11-01')])),
      ]),
    ),
    ...extra,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
    if (url.pathname === '/api/subscription/details') {
      const found = list.find((item) => item.subscription_id === url.searchParams.get('subscription_id'));
      return found ? jsonResponse(200, found) : errorResponse(404, 'NOT_FOUND', MESSAGES.subscriptionNotFound);
    }
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unexpected call: ${key}`);
    return handler(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
  });
  vi.stubGlobal('fetch', fetchMock);
  const view = renderRoutes(
    [
      { path: '/subscriptions', element: <SubscriptionsPage /> },
      { path: '/subscriptions/payment-status/success', element: <SubscriptionsPage /> },
      { path: '/subscriptions/:subscriptionId', element: <SubscriptionsPage /> },
    ],
    path,
  );
  const calls = (key: string) => fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? 'GET'} ${pathOf(input)}` === key);
  return { ...view, fetchMock, calls };
}

afterEach(() => vi.unstubAllGlobals());

describe('subscriptions page', () => {
  it('lists the subscriptions with the total balance and selects the first', async () => {
    const { router } = renderPage('/subscriptions');
    const list = await screen.findByRole('navigation', { name: 'Subscriptions' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['AnalyticsBalance $1,734.00', 'StagingBalance $99.99']);
    expect(screen.getByRole('group', { name: 'Total balance' })).toHaveTextContent('$1,833.99');
    expect(router.state.location.pathname).toBe(`/subscriptions/${ANALYTICS.subscription_id}`);
    expect(await screen.findByRole('heading', { name: 'Analytics' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New' })).toBeEnabled();
  });

  it('names the active subscription for the breadcrumb and the document title', async () => {
    renderPage(`/subscriptions/${STAGING.subscription_id}`);
    await screen.findByRole('heading', { name: 'Staging' });
    expect(getActiveNames().subscription).toBe('Staging');
    expect(documentTitle(`/subscriptions/${STAGING.subscription_id}`, getActiveNames())).toBe('Staging - Subscriptions | Kumo Cloud');
  });

  it('takes ?id= as the subscription to show', async () => {
    const { router } = renderPage(`/subscriptions?id=${STAGING.subscription_id}`);
    expect(await screen.findByRole('heading', { name: 'Staging' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/subscriptions/${STAGING.subscription_id}`);
  });

  it('shows name, remark, status, plan and balance with Add Funds, and the four tabs', async () => {
    renderPage(`/subscriptions/${ANALYTICS.subscription_id}`);
    await screen.findByRole('heading', { name: 'Analytics' });
    expect(screen.getByText('Reporting for the finance team')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Status' })).toHaveTextContent('Active');
    expect(screen.getByRole('group', { name: 'Subscription Plan' })).toHaveTextContent('Prepaid');
    const balance = screen.getByRole('group', { name: 'Your Balance' });
    expect(balance).toHaveTextContent('$1,734.00');
    expect(within(balance).getByRole('button', { name: 'Add Funds' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Overview',
      'Cost Analysis',
      'Transaction History',
      'Statements',
    ]);
    expect(screen.queryByText(MESSAGES.minimumBalance)).not.toBeInTheDocument();
  });

  it('says usage cost is not available until there is usage', async () => {
    renderPage(`/subscriptions/${ANALYTICS.subscription_id}`);
    await screen.findByRole('heading', { name: 'Analytics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Cost Analysis' }));
    expect(await screen.findByText(METERING_MESSAGES.costUnavailable)).toBeInTheDocument();
  });

  it('asks for funds when the balance is below $100', async () => {
    renderPage(`/subscriptions/${STAGING.subscription_id}`);
    await screen.findByRole('heading', { name: 'Staging' });
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.minimumBalance);
    expect(screen.getByText('No remarks')).toBeInTheDocument();
  });

  it('shows the empty states without subscriptions', async () => {
    renderPage('/subscriptions', []);
    expect(await screen.findByText(MESSAGES.noSubscriptions)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.subscriptionDetailsUnavailable)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Total balance' })).toHaveTextContent('$0.00');
  });

  it("shows a failed list call in place of the list: the spec's sentence with the server's reason under it", async () => {
    renderPage('/subscriptions', [], {
      'GET /api/subscription/list': () => errorResponse(500, 'INTERNAL_ERROR', MESSAGES.internal),
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.subscriptionsFetchFailed)).toBeInTheDocument();
    expect(within(alert).getByText(MESSAGES.internal)).toBeInTheDocument();
  });

  describe('coming back from the payment provider', () => {
    const status = (overrides: Partial<PaymentStatus>): PaymentStatus => ({
      subscription_id: ANALYTICS.subscription_id,
      transaction_id: '7b1e6c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b',
      amount: 1234,
      transaction_status: 'SUCCESSFUL',
      receipt_id: 'KC-00001000',
      failure_message: null,
      ...overrides,
    });
    const paymentStatusPath = `GET /api/credit/payment-status/${ANALYTICS.subscription_id}`;

    it('confirms the payment, tidies the URL and says how much was added', async () => {
      const { router, fetchMock } = renderPage(
        `/subscriptions?session_id=cs_test_1&id=${ANALYTICS.subscription_id}`,
        [ANALYTICS, STAGING],
        {
          [paymentStatusPath]: () => jsonResponse(200, status({})),
        },
      );
      const dialog = await screen.findByRole('dialog', { name: 'Add Funds' });
      expect(await within(dialog).findByText('Payment successful')).toBeInTheDocument();
      expect(within(dialog).getByText('$1,234.00 has been added to Analytics.')).toBeInTheDocument();
      expect(within(dialog).getByText(/Receipt KC-00001000/)).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(`/subscriptions/${ANALYTICS.subscription_id}`);
      expect(router.state.location.search).toBe('');
      const confirmation = fetchMock.mock.calls.find(([input]) => pathOf(input).startsWith('/api/credit/payment-status/'));
      expect(confirmation && urlOf(confirmation[0])).toBe(`/api/credit/payment-status/${ANALYTICS.subscription_id}?session_id=cs_test_1`);

      await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      expect(router.state.location.state).toBeNull();
    });

    it('handles the same return on /subscriptions/payment-status/success', async () => {
      renderPage(`/subscriptions/payment-status/success?session_id=cs_test_2&id=${ANALYTICS.subscription_id}`, [ANALYTICS], {
        [paymentStatusPath]: () => jsonResponse(200, status({})),
      });
      expect(await screen.findByText('Payment successful')).toBeInTheDocument();
    });

    it('says why a declined payment added nothing', async () => {
      renderPage(`/subscriptions?session_id=cs_test_3&id=${ANALYTICS.subscription_id}`, [ANALYTICS], {
        [paymentStatusPath]: () =>
          jsonResponse(200, status({ transaction_status: 'FAILED', receipt_id: null, failure_message: 'Your card was declined.' })),
      });
      expect(await screen.findByText('Payment failed')).toBeInTheDocument();
      expect(screen.getByText('Your card was declined. No funds were added.')).toBeInTheDocument();
    });

    it('shows a payment still processing as not confirmed yet', async () => {
      renderPage(`/subscriptions?session_id=cs_test_4&id=${ANALYTICS.subscription_id}`, [ANALYTICS], {
        [paymentStatusPath]: () => jsonResponse(200, status({ transaction_status: 'PROCESSING', receipt_id: null })),
      });
      expect(await screen.findByText('Payment processing')).toBeInTheDocument();
      expect(screen.getByText(/Your payment of \$1,234.00 is not confirmed yet/)).toBeInTheDocument();
    });

    it('closes a checkout the customer cancelled and says nothing was added', async () => {
      const { calls } = renderPage(`/subscriptions?id=${ANALYTICS.subscription_id}&cancelled_purchase=p-1`, [ANALYTICS], {
        'POST /api/credit/purchase/p-1/cancel': () =>
          jsonResponse(200, status({ transaction_status: 'CANCELLED', receipt_id: null, amount: 75 })),
      });
      expect(await screen.findByText('Payment cancelled')).toBeInTheDocument();
      expect(screen.getByText('The payment of $75.00 was cancelled. No funds were added.')).toBeInTheDocument();
      expect(calls('POST /api/credit/purchase/p-1/cancel').length).toBeGreaterThan(0);
    });

    it('shows the server’s error when the confirmation fails', async () => {
      renderPage(`/subscriptions?session_id=cs_unknown&id=${ANALYTICS.subscription_id}`, [ANALYTICS], {
        [paymentStatusPath]: () => errorResponse(404, 'NOT_FOUND', MESSAGES.transactionNotFound),
      });
      expect(await screen.findByText(MESSAGES.transactionNotFound)).toBeInTheDocument();
    });
  });

  describe('money ahead', () => {
    const outlookPath = `GET /api/subscription/consumption/outlook/${ANALYTICS.subscription_id}`;

    it('says how long the balance lasts, and paid funds and each free-credit grant apart', async () => {
      renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS], {
        [outlookPath]: () =>
          jsonResponse(
            200,
            balanceOutlook({
              hourly_rate: 6.55,
              runway_hours: 158.4,
              hours_until_stop: 158.4,
              free_credits: 520,
              free_credit_grants: [
                { granted_at: '2026-03-20T09:00:00.000Z', amount: 50, remaining: 20, expires_at: '2026-03-23T09:00:00.000Z', days_left: 0 },
                {
                  granted_at: '2026-03-10T09:00:00.000Z',
                  amount: 500,
                  remaining: 500,
                  expires_at: '2026-04-09T09:00:00.000Z',
                  days_left: 1,
                },
              ],
            }),
          ),
      });
      const lasts = await screen.findByRole('group', { name: 'Balance lasts' });
      expect(lasts).toHaveTextContent('About 6 days');
      expect(lasts).toHaveTextContent('at the current rate of $6.55 per hour');
      expect(lasts).toHaveTextContent('Running clusters are stopped when it is used up.');
      expect(screen.getByRole('group', { name: 'Paid funds' })).toHaveTextContent('$1,234.00');
      expect(screen.getByRole('group', { name: 'Free credits' })).toHaveTextContent('$520.00');
      const grants = within(screen.getByRole('list', { name: 'Free credit grants' })).getAllByRole('listitem');
      expect(grants.map((grant) => grant.textContent)).toEqual([
        expect.stringMatching(/^\$20\.00 left of \$50\.00, expires Mar 23, 2026 \d+:\d\d [AP]M \(less than a day left\)$/),
        expect.stringMatching(/^\$500\.00, expires Apr 9, 2026 \d+:\d\d [AP]M \(1 day left\)$/),
      ]);
    });

    it('claims no runway when nothing is charged', async () => {
      renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS]);
      const idle = await screen.findByRole('group', { name: 'Balance lasts' });
      expect(idle).toHaveTextContent('Not being spent');
      expect(idle).toHaveTextContent('Nothing is charged now');
      expect(idle).not.toHaveTextContent(/about/i);
    });

    it('says the balance is used up while clusters are still charged', async () => {
      renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS], {
        [outlookPath]: () =>
          jsonResponse(200, balanceOutlook({ balance: -3, paid_funds: -3, hourly_rate: 6.55, runway_hours: null, hours_until_stop: 0 })),
      });
      const lasts = await screen.findByRole('group', { name: 'Balance lasts' });
      expect(lasts).toHaveTextContent('Used up');
      expect(lasts).toHaveTextContent('Clusters cost $6.55 per hour');
      expect(lasts).toHaveTextContent('Running clusters are being stopped: the balance is used up.');
    });

    it('says when running clusters stop: at the overdue limit staff allow', async () => {
      const outlook = balanceOutlook({
        balance: -3,
        paid_funds: -3,
        hourly_rate: 6.55,
        runway_hours: null,
        overdue_limit: 100,
        hours_until_stop: 14.8,
      });
      renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS], { [outlookPath]: () => jsonResponse(200, outlook) });
      const lasts = await screen.findByRole('group', { name: 'Balance lasts' });
      expect(lasts).toHaveTextContent('Running clusters stop in about 14 hours, when the balance reaches your overdue limit of -$100.00.');
    });

    it('says running clusters are being stopped once the balance is past the overdue limit', async () => {
      const outlook = balanceOutlook({
        balance: -101,
        paid_funds: -101,
        hourly_rate: 6.55,
        runway_hours: null,
        overdue_limit: 100,
        hours_until_stop: 0,
      });
      renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS], { [outlookPath]: () => jsonResponse(200, outlook) });
      const lasts = await screen.findByRole('group', { name: 'Balance lasts' });
      expect(lasts).toHaveTextContent('Running clusters are being stopped: the balance is below your overdue limit of -$100.00.');
    });

    it('shows new rates from their date with the rates they change, and nothing when none are scheduled', async () => {
      renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS, STAGING], {
        [outlookPath]: () =>
          jsonResponse(
            200,
            balanceOutlook({
              scheduled_rate_changes: [
                {
                  effective_date: '2026-06-20T00:00:00.000Z',
                  rates: [
                    { dimension: 'QUERY_ENGINES', rate: 0.09, previous_rate: 0.06, free_units: 0, previous_free_units: 0 },
                    { dimension: 'DATA_PROCESS', rate: 0.05, previous_rate: 0.05, free_units: 20, previous_free_units: 50 },
                  ],
                },
              ],
            }),
          ),
      });
      const notice = await screen.findByRole('note');
      expect(within(notice).getByText('New rates from Jun 20, 2026')).toBeInTheDocument();
      const table = within(notice).getByRole('table', { name: 'Rates changing on Jun 20, 2026' });
      expect(
        within(table)
          .getAllByRole('row')
          .map((row) => row.textContent),
      ).toEqual([
        'ServiceNowFrom Jun 20, 2026',
        'Query Engine$0.0600 per core per hour$0.0900 per core per hour',
        'Build$0.0500 per core per hour, 50 free build hours a month$0.0500 per core per hour, 20 free build hours a month',
      ]);

      // Another subscription of the account without scheduled changes: no notice.
      await userEvent.click(within(screen.getByRole('navigation', { name: 'Subscriptions' })).getByRole('link', { name: /Staging/ }));
      await screen.findByRole('heading', { name: 'Staging' });
      await screen.findByRole('group', { name: 'Balance lasts' });
      expect(screen.queryByRole('note')).not.toBeInTheDocument();
    });
  });

  it('shows the history of the selected subscription in its tab', async () => {
    renderPage(`/subscriptions/${ANALYTICS.subscription_id}`, [ANALYTICS], {
      [`GET /api/credit/view/credit-transactions/${ANALYTICS.subscription_id}`]: () =>
        jsonResponse(
          200,
          transactionPage([transaction({ category: 'FREE_CREDITS', amount: 500, type: 'CREDIT', description: 'Sign-up free credits' })]),
        ),
    });
    await screen.findByRole('heading', { name: 'Analytics' });
    await userEvent.click(screen.getByRole('tab', { name: 'Transaction History' }));
    expect(await screen.findByText('Sign-up free credits')).toBeInTheDocument();
  });
});
