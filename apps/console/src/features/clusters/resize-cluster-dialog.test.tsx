import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_SIZES } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { ResizeClusterDialog } from './resize-cluster-dialog';

const ID = '00000000-0000-4000-8000-00000000a001';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

describe('the Resize dialog', { timeout: 30_000 }, () => {
  it('shows the current and proposed shape with the hourly cost and runway, and resizes only to another shape', async () => {
    const { bodiesOf } = mockApi({
      'GET /api/cluster/sizes': () => jsonResponse(200, CLUSTER_SIZES),
      [`GET /api/cluster/resize-preview/${ID}`]: () =>
        jsonResponse(200, {
          current: { size: 'S', query_engines: 2, hourly_cost: 4.21 },
          proposed: { size: 'L', query_engines: 4, hourly_cost: 11.77 },
          runway_days_current: 4.9,
          runway_days_proposed: 1.8,
        }),
      [`POST /api/cluster/resize/${ID}`]: () =>
        jsonResponse(200, {
          deployment_id: ID,
          status: 'ONLINE',
          size: 'L',
          query_engines: 4,
          resizing: true,
          message: 'The cluster is being resized.',
        }),
    });
    const onClose = vi.fn();
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ResizeClusterDialog
              cluster={{ deployment_id: ID, cluster_name: 'Alpha', status: 'ONLINE', size: 'S', query_engines: 2 }}
              onClose={onClose}
            />
          ),
        },
      ],
      '/',
    );
    const user = userEvent.setup();
    const current = await screen.findByTestId('resize-current');
    expect(within(current).getByText('S × 2')).toBeInTheDocument();
    expect(await within(current).findByText('$4.21 per hour')).toBeInTheDocument();
    expect(within(current).getByText('Runway: 4.9 days')).toBeInTheDocument();
    expect(within(current).getByRole('img', { name: 'Capacity 2 of 5' })).toBeInTheDocument();
    const confirm = screen.getByRole('button', { name: 'Resize' });
    expect(confirm).toBeDisabled();
    expect(screen.getByText('Choose another size or number of query engines.')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'L' }));
    expect(await screen.findByText('r6i.8xlarge: 32 cores, 256 GiB each')).toBeInTheDocument();
    // By keyboard: the slider's thumb moves one engine per arrow.
    screen.getByRole('slider').focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    const proposed = screen.getByTestId('resize-proposed');
    expect(within(proposed).getByText('L × 4')).toBeInTheDocument();
    expect(within(proposed).getByRole('img', { name: 'Capacity 4 of 5' })).toBeInTheDocument();
    expect(await within(proposed).findByText('$11.77 per hour')).toBeInTheDocument();
    expect(within(proposed).getByText('Runway: 1.8 days')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resize' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodiesOf(`POST /api/cluster/resize/${ID}`)).toEqual([{ size: 'L', query_engines: 4 }]);
  });
});
