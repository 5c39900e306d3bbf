import { configure, screen, within } from '@testing-library/react';
import { Notifications, notifications } from '@mantine/notifications';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUDGET_MESSAGES, type Budget } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { budget, subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { formatDateTime } from '../../lib/dates';
import { BudgetCard } from './budget-card';

afterEach(() => vi.unstubAllGlobals());
afterEach(() => notifications.clean());
configure({ asyncUtilTimeout: 5000 });
// Typing key by key is slower than setting values, and this machine is shared: room for it.
vi.setConfig({ testTimeout: 20_000 });

const ANALYTICS = subscription();
const PATH = `/api/subscription/${ANALYTICS.subscription_id}/budget`;
const SET = budget({
  monthly_amount: 500,
  month_to_date: 410,
  forecast: 620,
  stop_clusters_at_limit: true,
  alerts: [
    { threshold: 50, kind: 'ACTUAL', sent_at: '2026-11-10T08:00:00.000Z' },
    { threshold: 75, kind: 'ACTUAL', sent_at: '2026-11-18T08:00:00.000Z' },
    { threshold: 100, kind: 'FORECAST', sent_at: '2026-11-18T08:00:00.000Z' },
  ],
});

function renderCard(current: Budget, handlers: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ [`GET ${PATH}`]: () => jsonResponse(200, current), ...handlers });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            {/* The console's toast host, so a test sees the toast a person would. */}
            <Notifications />
            <BudgetCard subscription={ANALYTICS} />
          </>
        ),
      },
    ],
    '/',
  );
  return { api, user: userEvent.setup() };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog', { name });
}

describe('the budget card', () => {
  it('offers to set a budget when there is none', async () => {
    renderCard(budget());
    expect(await screen.findByText(/No budget is set/)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Monthly budget' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set a budget' })).toBeInTheDocument();
    expect(screen.queryByRole('meter')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit budget' })).not.toBeInTheDocument();
  });

  it("shows the month's spend against the budget, the forecast, the thresholds, the hard cap and the alerts sent", async () => {
    renderCard(SET);
    const meter = await screen.findByRole('meter', { name: 'Spend this month against the budget' });
    expect(meter).toHaveAttribute('aria-valuenow', '82');
    expect(meter).toHaveAttribute('aria-valuetext', '$410.00 of $500.00 (82 %), forecast $620.00 (124 %)');
    expect(screen.getByRole('heading', { name: 'Monthly budget: $500.00' })).toBeInTheDocument();
    // The scale reaches the forecast (124 %): the spend and forecast are drawn against it.
    expect(screen.getByTestId('budget-spend').style.width).toBe(`${(82 * 100) / 124}%`);
    expect(screen.getByTestId('budget-forecast').style.width).toBe('100%');
    // Every threshold is a tick; 90 % is too close to 100 % on this scale for a label of its own.
    expect(screen.getByTestId('budget-tick-labels')).toHaveTextContent(/^50 %75 %100 %$/);
    expect(screen.getByText(/Hard cap on/)).toBeInTheDocument();
    expect(screen.getByText(/Alerts at 50, 75, 90, 100 % of the budget\./)).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Alerts this month' })).getAllByRole('row');
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['Threshold', 'Reached by', 'Sent'],
      ['50 %', 'Spend', formatDateTime('2026-11-10T08:00:00.000Z')],
      ['75 %', 'Spend', formatDateTime('2026-11-18T08:00:00.000Z')],
      ['100 %', 'Forecast', formatDateTime('2026-11-18T08:00:00.000Z')],
    ]);
  });

  it("says the contract's messages under the fields and keeps Save disabled", async () => {
    const { user } = renderCard(budget());
    const dialog = await openDialog(user, 'Set a budget');
    const save = within(dialog).getByRole('button', { name: 'Save budget' });
    const amount = within(dialog).getByRole('textbox', { name: 'Monthly budget (USD)' });
    const thresholds = within(dialog).getByRole('textbox', { name: 'Alert thresholds (%)' });
    expect(thresholds).toHaveValue('50, 75, 90, 100');
    expect(save).toBeDisabled();

    await user.type(amount, '0');
    expect(await within(dialog).findByText(BUDGET_MESSAGES.amountRange)).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '250');
    await user.clear(thresholds);
    await user.type(thresholds, '50, 250');
    expect(await within(dialog).findByText(BUDGET_MESSAGES.thresholdRange)).toBeInTheDocument();
    expect(thresholds).toHaveAccessibleDescription(expect.stringContaining(BUDGET_MESSAGES.thresholdRange));
    await user.clear(thresholds);
    await user.type(thresholds, '50, 50');
    expect(await within(dialog).findByText(BUDGET_MESSAGES.thresholdsDistinct)).toBeInTheDocument();
    await user.clear(thresholds);
    expect(await within(dialog).findByText(BUDGET_MESSAGES.thresholdsCount)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(thresholds, '90 50');
    await vi.waitFor(() => expect(save).toBeEnabled());
  });

  it('saves the budget as typed, the thresholds in order, and says so', async () => {
    const saved = budget({ monthly_amount: 1234.5, thresholds: [50, 90], stop_clusters_at_limit: true });
    let stored = budget();
    const { api, user } = renderCard(budget(), {
      [`GET ${PATH}`]: () => jsonResponse(200, stored),
      [`PUT ${PATH}`]: () => jsonResponse(200, (stored = saved)),
    });
    const dialog = await openDialog(user, 'Set a budget');
    await user.type(within(dialog).getByRole('textbox', { name: 'Monthly budget (USD)' }), '1,234.50');
    const thresholds = within(dialog).getByRole('textbox', { name: 'Alert thresholds (%)' });
    await user.clear(thresholds);
    await user.type(thresholds, '90, 50');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Alert on the forecast too' }));
    await user.click(within(dialog).getByRole('checkbox', { name: "Stop this subscription's clusters when the budget is used up" }));
    await user.click(within(dialog).getByRole('button', { name: 'Save budget' }));
    expect(await screen.findByText(BUDGET_MESSAGES.budgetSaved)).toBeInTheDocument();
    expect(api.bodiesOf(`PUT ${PATH}`)).toEqual([
      { monthly_amount: '1234.50', thresholds: [50, 90], alert_on_forecast: true, stop_clusters_at_limit: true },
    ]);
    expect(await screen.findByRole('heading', { name: 'Monthly budget: $1,234.50' })).toBeInTheDocument();
  });

  it("shows the server's field errors under their fields", async () => {
    const refused = jsonResponse(400, {
      errorDetails: { error_code: 'VALIDATION_FAILED', error_message: BUDGET_MESSAGES.thresholdRange },
      field_errors: { 'thresholds.1': BUDGET_MESSAGES.thresholdRange },
    });
    const { user } = renderCard(SET, { [`PUT ${PATH}`]: () => refused });
    const dialog = await openDialog(user, 'Edit budget');
    expect(within(dialog).getByRole('textbox', { name: 'Monthly budget (USD)' })).toHaveValue('500.00');
    await user.click(within(dialog).getByRole('button', { name: 'Save budget' }));
    const thresholds = within(dialog).getByRole('textbox', { name: 'Alert thresholds (%)' });
    await vi.waitFor(() => expect(thresholds).toHaveAccessibleDescription(expect.stringContaining(BUDGET_MESSAGES.thresholdRange)));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('removes the budget after asking, and says why it could not', async () => {
    let fail = true;
    let stored = SET;
    const { api, user } = renderCard(SET, {
      [`GET ${PATH}`]: () => jsonResponse(200, stored),
      [`DELETE ${PATH}`]: () =>
        fail ? errorResponse(404, 'NOT_FOUND', 'Subscription not found.') : jsonResponse(200, (stored = budget())),
    });
    const dialog = await openDialog(user, 'Remove budget');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Subscription not found.');
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(BUDGET_MESSAGES.budgetDeleted)).toBeInTheDocument();
    expect(api.bodiesOf(`DELETE ${PATH}`)).toHaveLength(2);
    expect(await screen.findByRole('button', { name: 'Set a budget' })).toBeInTheDocument();
  });
});
