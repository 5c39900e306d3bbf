import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTO_STOP_MESSAGES, type AutoStopResponse, type PutAutoStopRequest } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { AutoStopCard } from './auto-stop-card';

afterEach(() => vi.restoreAllMocks());
afterEach(() => notifications.clean());
afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const ID = '00000000-0000-4000-8000-0000000000ab';
const PATH = `/api/cluster/auto-stop/${ID}`;
const SETTINGS: AutoStopResponse = {
  deployment_id: ID,
  idle_minutes: 60,
  restart_when_funded: false,
  last_activity_at: '2026-11-28T14:02:00.000Z',
  stops_at: '2026-11-28T15:02:00.000Z',
  wake_sources: [
    {
      source: 'ENDPOINT',
      client_address: '203.0.113.7',
      user: 'kumo_admin',
      user_agent: 'DBeaver',
      queries: 12,
      last_at: '2026-11-28T14:02:00.000Z',
    },
  ],
  saved_this_month: 12.5,
};

function renderCard(put: (body: unknown) => Response = (body) => jsonResponse(200, { ...SETTINGS, ...(body as PutAutoStopRequest) })) {
  const api = mockApi({ [`GET ${PATH}`]: () => jsonResponse(200, SETTINGS), [`PUT ${PATH}`]: put });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            <Notifications />
            <AutoStopCard deploymentId={ID} />
          </>
        ),
      },
    ],
    '/',
  );
  return api;
}

describe('auto-stop card', () => {
  it('shows what kept the cluster awake and what auto-stop saved this month', async () => {
    renderCard();
    const table = await screen.findByRole('table', { name: 'What kept it awake in the last 24 hours' });
    expect(within(table).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(table).getByText('DBeaver')).toBeInTheDocument();
    expect(within(table).getByText('SQL endpoint')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Saved this month' })).toHaveTextContent('$12.50');
    expect(screen.getByRole('group', { name: 'Stops if idle until' })).not.toHaveTextContent('off');
  });

  it('refuses idle minutes outside 10 to 1,440 with the contract’s message and sends nothing', async () => {
    const { bodiesOf } = renderCard();
    const minutes = await screen.findByRole('textbox', { name: /Idle minutes/ });
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Save auto-stop' }));
    expect(await screen.findByText(AUTO_STOP_MESSAGES.idleMinutesRange)).toBeInTheDocument();
    expect(bodiesOf(`PUT ${PATH}`)).toEqual([]);
  });

  it('saves auto-stop off with restart when funded, and says it is saved', async () => {
    const { bodiesOf } = renderCard();
    await userEvent.click(await screen.findByRole('switch', { name: 'Stop when idle' }));
    await userEvent.click(screen.getByRole('switch', { name: /Restart when funded/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save auto-stop' }));
    expect(await screen.findByText(AUTO_STOP_MESSAGES.saved)).toBeInTheDocument();
    expect(bodiesOf(`PUT ${PATH}`)).toEqual([{ idle_minutes: null, restart_when_funded: true }]);
  });
});
