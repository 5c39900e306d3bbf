import { configure, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, type PutScheduleRequest, type ScheduleResponse } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { useQuery } from '../../lib/use-query';
import { clusterKeys } from './api/keys';
import { ScheduleCard } from './schedule-card';

/** The overview's timeline beside the card: an audit reading the save refreshes, as on the page. */
function TimelineProbe() {
  useQuery({ queryKey: clusterKeys.timeline(ID), queryFn: () => fetch(`/api/probe/${ID}`).then((response) => response.json()) });
  return null;
}

afterEach(() => vi.restoreAllMocks());
afterEach(() => notifications.clean());
afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const ID = '00000000-0000-4000-8000-0000000000aa';
const PATH = `/api/cluster/schedule/${ID}`;
const OFF: ScheduleResponse = { deployment_id: ID, enabled: false, time_zone: 'UTC', rules: [], next_run_at: null, next_action: null };

function renderCard(put: (body: unknown) => Response = (body) => jsonResponse(200, { ...OFF, ...(body as PutScheduleRequest) })) {
  const api = mockApi({
    [`GET ${PATH}`]: () => jsonResponse(200, OFF),
    [`PUT ${PATH}`]: put,
    [`GET /api/probe/${ID}`]: () => jsonResponse(200, {}),
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            {/* The console's toast host, so a test sees the toast a person would. */}
            <Notifications />
            <ScheduleCard deploymentId={ID} />
            <TimelineProbe />
          </>
        ),
      },
    ],
    '/',
  );
  return api;
}

describe('weekly schedule', () => {
  it('shows a toast saying the schedule has been saved once the server has it', async () => {
    const { bodiesOf } = renderCard();
    await userEvent.click(await screen.findByRole('switch', { name: /weekly schedule/ }));
    fireEvent.change(screen.getByLabelText('Start on Monday'), { target: { value: '08:00' } });
    expect(screen.queryByText(CLUSTER_MESSAGES.scheduleSaved)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));

    const toast = (await screen.findByText(CLUSTER_MESSAGES.scheduleSaved)).closest('.mantine-Notification-root');
    expect(toast).toBeVisible();
    expect(bodiesOf(`PUT ${PATH}`)).toEqual([
      expect.objectContaining({ enabled: true, rules: [{ day: 'MON', action: 'START', time: '08:00' }] }),
    ]);
  });

  it('shows no saved toast when the server refuses the schedule', async () => {
    renderCard(() => jsonResponse(400, { errorDetails: { error_code: 'VALIDATION_FAILED', error_message: 'The request is not valid.' } }));
    await userEvent.click(await screen.findByRole('switch', { name: /weekly schedule/ }));
    fireEvent.change(screen.getByLabelText('Start on Monday'), { target: { value: '08:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));

    expect(await screen.findByText('The request is not valid.')).toBeInTheDocument();
    expect(screen.queryByText(CLUSTER_MESSAGES.scheduleSaved)).not.toBeInTheDocument();
  });

  it('refuses to turn the schedule on without a start or stop time, saying so on the switch', async () => {
    const { bodiesOf } = renderCard();
    const toggle = await screen.findByRole('switch', { name: /weekly schedule/ });
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText(CLUSTER_MESSAGES.scheduleNeedsRules)).toBeInTheDocument();
    expect(toggle).toHaveAccessibleDescription(CLUSTER_MESSAGES.scheduleNeedsRules);
    expect(bodiesOf(`PUT ${PATH}`)).toEqual([]);
    // A time added clears it.
    fireEvent.change(screen.getByLabelText('Stop on Friday'), { target: { value: '19:00' } });
    expect(screen.queryByText(CLUSTER_MESSAGES.scheduleNeedsRules)).not.toBeInTheDocument();
  });
});
