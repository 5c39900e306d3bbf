import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, METERING_MESSAGES, type Budget } from '@kumo/contract';
import { consumptionOverview, creditAnalysis, dailyCost } from '../../../test/cost';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { CostAnalysisPage } from './cost-analysis-page';

const NOW = new Date('2026-11-20T10:00:00Z');
const ANALYTICS = consumptionOverview({ consumed_amount: 16.15, forecasted_amount: 40.5, balance: 1717.85 });
const STAGING = consumptionOverview({
  subscription_id: '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60',
  subscription_name: 'Staging',
  balance: -12.3,
});
const NOVEMBER = creditAnalysis(
  '2026-11',
  [dailyCost('2026-11-01'), dailyCost('2026-11-02', { BI_SERVER: 12.5, QUERY_ENGINES: 3.25, PERSISTENT_STORAGE: 0.4 })],
  [],
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 120, 16.15],
);

const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);
const urlsOf = (fetchMock: ReturnType<typeof vi.fn>, path: string) =>
  fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.startsWith(path));

/** The budget call's answer: a monthly amount, or none. */
const budgetOf = (subscriptionId: string, monthlyAmount: number | null): Budget => ({
  subscription_id: subscriptionId,
  monthly_amount: monthlyAmount,
  thresholds: [50, 75, 90, 100],
  alert_on_forecast: false,
  stop_clusters_at_limit: false,
  month_to_date: 16.15,
  forecast: 40.5,
  start_headroom_per_hour: null,
  alerts: [],
});

function renderPage(overview = [ANALYTICS, STAGING], budget: number | null = null) {
  const api = mockApi({
    [`GET /api/subscription/${ANALYTICS.subscription_id}/budget`]: () => jsonResponse(200, budgetOf(ANALYTICS.subscription_id, budget)),
    [`GET /api/subscription/${STAGING.subscription_id}/budget`]: () => jsonResponse(200, budgetOf(STAGING.subscription_id, null)),
    'GET /api/subscription/consumption/overview': () => jsonResponse(200, overview),
    [`GET /api/subscription/consumption/credit-analysis/${ANALYTICS.subscription_id}`]: () => jsonResponse(200, NOVEMBER),
    [`GET /api/subscription/consumption/credit-analysis/${STAGING.subscription_id}`]: () =>
      jsonResponse(200, creditAnalysis('2026-11', [dailyCost('2026-11-01')])),
  });
  renderRoutes([{ path: '/cost-analysis', element: <CostAnalysisPage now={NOW} /> }], '/cost-analysis');
  return api;
}

// Lazy charts and big tables render slowly on a busy machine.
configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

describe('cost analysis page', { timeout: 30_000 }, () => {
  it('shows each subscription’s actual cost, forecast and balance, with -- for no cost and the totals', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Cost of each subscription, Nov, 2026' });
    expect(within(table).getAllByRole('row').map(cellsOf)).toEqual([
      ['Subscription name', 'Actual cost', 'Forecast', 'Balance'],
      ['Analytics', '$16.15', '$40.50', '$1,717.85'],
      ['Staging', '--', '--', '-$12.30'],
      ['Total', '$16.15', '$40.50', '$1,705.55'],
    ]);
  });

  it('charts the first subscription’s month by service and its last 12 months, with the numbers as tables', async () => {
    renderPage();
    expect(await screen.findByText('Daily cost of Analytics by service, Nov, 2026')).toBeInTheDocument();
    const byService = screen.getAllByRole('table').find((table) => within(table).queryByRole('columnheader', { name: 'BI Server' }))!;
    expect(
      within(byService)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Date', 'BI Server', 'Query Engine', 'Persistent Storage', 'Total']);
    // From the first day with usage: Nov 1 had none, so it is no row of '--'.
    expect(within(byService).getAllByRole('row').slice(1).map(cellsOf)).toEqual([['Nov 2', '$12.50', '$3.25', '$0.40', '$16.15']]);
    expect(screen.getByText('No usage before Nov 2.')).toBeInTheDocument();
    const months = screen.getAllByRole('table').find((table) => within(table).queryByRole('columnheader', { name: 'Month' }))!;
    const monthRows = within(months).getAllByRole('row').slice(1).map(cellsOf);
    expect(monthRows).toHaveLength(12);
    expect(monthRows.at(-2)).toEqual(['Oct, 2026', '$120.00']);
    expect(monthRows.at(-1)).toEqual(['Nov, 2026', '$16.15']);
  });

  describe('the running total of the month', () => {
    // jsdom lays nothing out: the charts' containers are told a size, so that the SVG is drawn.
    beforeEach(() => {
      vi.stubGlobal(
        'ResizeObserver',
        class {
          constructor(private readonly callback: ResizeObserverCallback) {}
          observe(target: Element) {
            this.callback([{ target, contentRect: { width: 600, height: 240 } } as unknown as ResizeObserverEntry], this);
          }
          unobserve() {}
          disconnect() {}
        },
      );
    });
    const budgetLine = () => document.querySelector('.recharts-reference-line');
    const budgetLabels = () =>
      [...document.querySelectorAll('text.recharts-label')].filter((label) => label.textContent?.startsWith('Budget'));
    const runningTotal = () =>
      screen.getAllByRole('table').find((table) => within(table).queryByRole('columnheader', { name: 'Cost so far' }))!;

    it('draws the monthly budget as a labelled line, and says it in the text equivalent', async () => {
      renderPage(undefined, 50);
      expect(await screen.findByText('The dashed line is the monthly budget, $50.00.')).toBeInTheDocument();
      expect(screen.getByText('Cost of Analytics so far, Nov, 2026')).toBeInTheDocument();
      await waitFor(() => expect(budgetLine()).not.toBeNull());
      // Dashed, in the colour the scheme gives the budget line, with its label beside it.
      expect(budgetLine()!.querySelector('line')).toHaveAttribute('stroke-dasharray', '6 4');
      expect(budgetLine()!.querySelector('line')).toHaveAttribute('stroke', 'var(--budget-line-color)');
      expect(budgetLabels().map((label) => label.textContent)).toEqual(['Budget $50.00']);
      expect(within(runningTotal()).getAllByRole('row').map(cellsOf)).toEqual([
        ['Date', 'Cost so far', 'Of the budget'],
        ['Nov 2', '$16.15', '32 %'],
      ]);
    });

    it('draws no line and names no budget when the subscription has none', async () => {
      renderPage(undefined, null);
      expect(await screen.findByText('Cost of Analytics so far, Nov, 2026')).toBeInTheDocument();
      // The chart itself is drawn: its bars are there, the line is not.
      await waitFor(() => expect(document.querySelector('.recharts-bar-rectangle')).not.toBeNull());
      expect(budgetLine()).toBeNull();
      expect(budgetLabels()).toEqual([]);
      expect(screen.queryByText(/monthly budget/)).not.toBeInTheDocument();
      expect(within(runningTotal()).getAllByRole('row').map(cellsOf)).toEqual([
        ['Date', 'Cost so far'],
        ['Nov 2', '$16.15'],
      ]);
    });
  });

  it('switches to another subscription and says when its month holds no cost', async () => {
    renderPage();
    await screen.findByText('Daily cost of Analytics by service, Nov, 2026');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Subscription' }), 'Staging');
    expect(await screen.findByText(METERING_MESSAGES.costUnavailable)).toBeInTheDocument();
    expect(screen.getByText('Cost of Staging, last 12 months')).toBeInTheDocument();
  });

  it('asks for the month picked, up to a year back', async () => {
    const { fetchMock } = renderPage();
    await screen.findByRole('table', { name: /Nov, 2026/ });
    const input = screen.getByRole('combobox', { name: 'Month' });
    const options = within(input).getAllByRole('option');
    expect(options).toHaveLength(12);
    expect(options.at(-1)).toHaveTextContent('Dec, 2025');
    await userEvent.selectOptions(input, 'Sep, 2026');
    await waitFor(() =>
      expect(urlsOf(fetchMock, '/api/subscription/consumption/overview')).toContain(
        '/api/subscription/consumption/overview?startDate=2026-09-01T00%3A00%3A00',
      ),
    );
    expect(await screen.findByRole('table', { name: 'Cost of each subscription, Sep, 2026' })).toBeInTheDocument();
  });

  it('shows the empty state without subscriptions', async () => {
    renderPage([]);
    expect(await screen.findByText(MESSAGES.noUsageCost)).toBeInTheDocument();
  });

  it("says the spec's sentence with the server's reason under it when the overview fails", async () => {
    mockApi({
      'GET /api/subscription/consumption/overview': () => errorResponse(503, 'SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable),
    });
    renderRoutes([{ path: '/cost-analysis', element: <CostAnalysisPage now={NOW} /> }], '/cost-analysis');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(METERING_MESSAGES.costLoadFailed)).toBeInTheDocument();
    expect(within(alert).getByText(MESSAGES.serviceUnavailable)).toBeInTheDocument();
  });
});
