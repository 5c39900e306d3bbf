import { configure, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../../../test/api';
import { cluster, detailsOf } from '../../../test/clusters';
import { renderRoutes } from '../../../test/render';
import { ResizeProgress } from './resize-progress';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

const engine = (n: number, instanceType: string, nodeStatus: string) => ({
  host: `kumo-qe-${n}`,
  node_status: nodeStatus,
  service_name: 'Query Engine',
  status: nodeStatus === 'Running' ? 'Online' : 'Starting',
  instance_type: instanceType,
  core: 32,
});

describe('the resize progress', () => {
  it('counts the new shape’s query engines online out of how many it will have, the old ones and the build node aside', async () => {
    const resizing = cluster({ status: 'ONLINE', size: 'S', query_engines: 2, resizing_to: { size: 'L', query_engines: 4 } });
    mockApi({
      [`GET /api/cluster/details/${resizing.deployment_id}`]: () =>
        jsonResponse(200, {
          ...detailsOf(resizing, 'CURRENT'),
          nodes: [
            engine(1, 'r6i.8xlarge', 'Running'),
            engine(2, 'r6i.8xlarge', 'Running'),
            engine(3, 'r6i.8xlarge', 'Pending'),
            engine(4, 'r6i.2xlarge', 'Running'),
            { ...engine(9, 'r6i.8xlarge', 'Running'), host: 'kumo-build-1', service_name: 'Query Engine (build)' },
          ],
        }),
    });
    renderRoutes([{ path: '/', element: <ResizeProgress cluster={resizing} /> }], '/');
    expect(await screen.findByText('Resizing to L × 4')).toBeInTheDocument();
    expect(await screen.findByText(/^2 of 4 query engines of L × 4 online\./)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Resize progress' })).toHaveAttribute('aria-valuenow', '50');
  });

  it('shows nothing unless an online cluster is being resized', () => {
    mockApi({});
    renderRoutes(
      [{ path: '/', element: <ResizeProgress cluster={cluster({ status: 'OFFLINE', resizing_to: { size: 'L', query_engines: 4 } })} /> }],
      '/',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText(/Resizing to/)).toBeNull();
  });
});
