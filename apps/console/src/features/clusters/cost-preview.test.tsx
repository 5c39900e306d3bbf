import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { budgetExceededMessage } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { budget } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { StartClusterDialog } from './start-cluster-dialog';

const SUBSCRIPTION_ID = '3f2c1b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const BUDGET_CALL = `GET /api/subscription/${SUBSCRIPTION_ID}/budget`;

/** The dialog for an S × 2 cluster named Alpha, without a backup region unless one is given. */
function renderDialog(onConfirm: () => void = () => {}, backupRegion: string | null = null) {
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <StartClusterDialog
            cluster={{
              cluster_name: 'Alpha',
              subscription_id: SUBSCRIPTION_ID,
              subscription_name: 'Analytics',
              backup_region: backupRegion,
              size: 'S',
              query_engines: 2,
            }}
            starting={false}
            onConfirm={onConfirm}
            onClose={() => {}}
          />
        ),
      },
    ],
    '/',
  );
}

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

describe('cost preview before a start', { timeout: 30_000 }, () => {
  it('says what the cluster, at its own shape, costs per hour and how long the balance lasts, then starts on confirmation', async () => {
    const { fetchMock } = mockApi({
      'GET /api/cluster/consumption/hourly-rate': () =>
        jsonResponse(200, { hourly_rate: 4.75, stopped_hourly_rate: 0.5, balance: 1734, covers_hours: 365, time_scale: 1 }),
      [BUDGET_CALL]: () => jsonResponse(200, budget({ subscription_id: SUBSCRIPTION_ID, monthly_amount: 40 })),
    });
    const onConfirm = vi.fn();
    renderDialog(onConfirm, 'us-west-2');
    expect(await screen.findByText('$4.75 per hour at your rates; your balance covers about 365 hours.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([input]) => input as string)).toContain(
      `/api/cluster/consumption/hourly-rate?subscriptionId=${SUBSCRIPTION_ID}&dr=true&size=S&query_engines=2`,
    );
    // A real cloud: nothing said about its speed.
    expect(screen.queryByText(/times faster/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledOnce());
  });

  it('says once, quietly, how much faster the demo cloud runs, with the figures still per billable hour', async () => {
    mockApi({
      'GET /api/cluster/consumption/hourly-rate': () =>
        jsonResponse(200, { hourly_rate: 6.65, stopped_hourly_rate: 0.5, balance: 500, covers_hours: 75, time_scale: 60 }),
      [BUDGET_CALL]: () => jsonResponse(200, budget({ subscription_id: SUBSCRIPTION_ID })),
    });
    renderDialog();
    expect(await screen.findByText('$6.65 per hour at your rates; your balance covers about 75 hours.')).toBeInTheDocument();
    expect(screen.getAllByText('The demo cloud runs 60 times faster than real time: a billable hour passes in 1 minute.')).toHaveLength(1);
  });

  it('still lets the customer start when the rate cannot be read', async () => {
    mockApi({
      'GET /api/cluster/consumption/hourly-rate': () => jsonResponse(500, {}),
      [BUDGET_CALL]: () => jsonResponse(200, budget({ subscription_id: SUBSCRIPTION_ID })),
    });
    renderDialog();
    expect(await screen.findByRole('button', { name: 'Start' })).toBeEnabled();
    expect(screen.queryByText(/per hour at your rates/)).not.toBeInTheDocument();
  });

  it('says the budget is used up before the start is confirmed, and offers no Start, when the hard cap leaves too little for the next hour', async () => {
    const { fetchMock } = mockApi({
      'GET /api/cluster/consumption/hourly-rate': () =>
        jsonResponse(200, { hourly_rate: 4.75, stopped_hourly_rate: 0.5, balance: 1734, covers_hours: 365, time_scale: 1 }),
      [BUDGET_CALL]: () =>
        jsonResponse(
          200,
          budget({
            subscription_id: SUBSCRIPTION_ID,
            monthly_amount: 40,
            stop_clusters_at_limit: true,
            month_to_date: 36,
            start_headroom_per_hour: 4,
          }),
        ),
    });
    const onConfirm = vi.fn();
    renderDialog(onConfirm);
    expect(await screen.findByText(budgetExceededMessage('Analytics'))).toBeInTheDocument();
    const start = screen.getByRole('button', { name: 'Start' });
    expect(start).toBeDisabled();
    await userEvent.click(start);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(fetchMock.mock.calls.some(([input]) => (input as string).startsWith('/api/cluster/start'))).toBe(false);
  });

  it('lets a capped subscription start a cluster whose hour, less the storage it already costs, fits, and one whose budget it may not read', async () => {
    mockApi({
      'GET /api/cluster/consumption/hourly-rate': () =>
        jsonResponse(200, { hourly_rate: 4.75, stopped_hourly_rate: 0.5, balance: 1734, covers_hours: 365, time_scale: 1 }),
      [BUDGET_CALL]: () =>
        jsonResponse(
          200,
          budget({ subscription_id: SUBSCRIPTION_ID, monthly_amount: 40, stop_clusters_at_limit: true, start_headroom_per_hour: 4.25 }),
        ),
    });
    renderDialog();
    expect(await screen.findByText(/per hour at your rates/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled());
    expect(screen.queryByText(budgetExceededMessage('Analytics'))).not.toBeInTheDocument();

    vi.unstubAllGlobals();
    mockApi({
      'GET /api/cluster/consumption/hourly-rate': () =>
        jsonResponse(200, { hourly_rate: 4.75, stopped_hourly_rate: 0.5, balance: 1734, covers_hours: 365, time_scale: 1 }),
      [BUDGET_CALL]: () => errorResponse(403, 'FORBIDDEN', 'Only the account owner or an account admin can do this.'),
    });
    renderDialog();
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Start' }).at(-1)).toBeEnabled());
  });
});
