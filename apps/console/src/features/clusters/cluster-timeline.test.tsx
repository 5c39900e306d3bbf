import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, MESSAGES, type TimelineResponse } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { ClusterTimeline } from './cluster-timeline';

const ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const PATH = `GET /api/cluster/timeline/${ID}`;

configure({ asyncUtilTimeout: 5000 });
// The fixtures' days are in the past whatever day the suite runs: only Date is pinned, timers stay real.
beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-20T12:00:00Z') }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const NEWEST: TimelineResponse = {
  deployment_id: ID,
  days: [
    {
      day: '2026-03-11',
      entries: [
        { kind: 'CHARGE', amount: 41.27 },
        {
          kind: 'EVENT',
          at: '2026-03-11T08:10:00.000Z',
          event: 'CLUSTER_STOPPED',
          description: 'Sales stopped.',
          caused_by: 'System',
        },
        {
          kind: 'EVENT',
          at: '2026-03-11T08:05:00.000Z',
          event: 'CLUSTER_STOP_REQUESTED',
          description: 'Stop of Sales requested by ada@example.com.',
          caused_by: 'ada@example.com',
        },
      ],
    },
  ],
  next_before: '2026-03-11',
};

const OLDER: TimelineResponse = {
  deployment_id: ID,
  days: [
    {
      day: '2026-03-10',
      entries: [
        { kind: 'CHARGE', amount: 15 },
        {
          kind: 'DEPLOYMENT_STEP',
          at: '2026-03-10T21:05:00.000Z',
          step: 'Deploying the product',
          state: 'success',
          description: 'Sales was deployed and is online.',
          caused_by: 'System',
        },
      ],
    },
  ],
  next_before: null,
};

function renderTimeline(handler: Parameters<typeof mockApi>[0][string]) {
  const api = mockApi({ [PATH]: handler });
  renderRoutes([{ path: '/', element: <ClusterTimeline deploymentId={ID} /> }], '/');
  return api;
}

describe('cluster timeline', { timeout: 30_000 }, () => {
  it('lists each day under its heading, newest first, with its charge, steps and events, then loads earlier days', async () => {
    const pages = [NEWEST, OLDER];
    const { fetchMock } = renderTimeline(() => jsonResponse(200, pages.shift()));

    const section = await screen.findByRole('region', { name: 'Timeline' });
    const days = await within(section).findByRole('list', { name: 'Timeline' });
    const march11 = within(days).getByRole('list', { name: 'Wednesday, Mar 11, 2026' });
    const entries = within(march11).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Charges for the day$41.27',
      'Stopped08:10 UTCSales stopped.by System',
      'Stop requested08:05 UTCStop of Sales requested by ada@example.com.by ada@example.com',
    ]);
    expect(within(entries[1]!).getByText('08:10 UTC')).toHaveAttribute('datetime', '2026-03-11T08:10:00.000Z');

    await userEvent.click(within(section).getByRole('button', { name: 'Show earlier days' }));
    const march10 = await within(days).findByRole('list', { name: 'Tuesday, Mar 10, 2026' });
    expect(
      within(march10)
        .getAllByRole('listitem')
        .map((entry) => entry.textContent),
    ).toEqual(['Charges for the day$15.00', 'Deploying the productDone21:05 UTCSales was deployed and is online.by System']);
    // Days stay in order, newest first, and nothing is left to load.
    expect(
      within(days)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Wednesday, Mar 11, 2026', 'Tuesday, Mar 10, 2026']);
    expect(within(section).queryByRole('button', { name: 'Show earlier days' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([input]) => (input instanceof Request ? input.url : input.toString()))).toEqual([
      `/api/cluster/timeline/${ID}`,
      `/api/cluster/timeline/${ID}?before=2026-03-11`,
    ]);
  });

  it('says when nothing has happened yet', async () => {
    renderTimeline(() => jsonResponse(200, { deployment_id: ID, days: [], next_before: null }));
    expect(await screen.findByText(CLUSTER_MESSAGES.noTimeline)).toBeInTheDocument();
  });

  it('shows a failed call in its place', async () => {
    renderTimeline(() => errorResponse(500, 'INTERNAL_ERROR', MESSAGES.internal));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.internal);
  });
});
