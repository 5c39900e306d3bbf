import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, permissionsFor } from '@kumo/contract';
import { CUSTOMER_ID, adminSubscription } from '../../../../test/admin-customers';
import { jsonResponse, mockApi } from '../../../../test/api';
import { cluster, detailsOf } from '../../../../test/clusters';
import { renderRoutes } from '../../../../test/render';
import { userDetail } from '../../../../test/users';
import { saveTokens, saveUser } from '../../../lib/session';
import { ClustersTab } from './clusters-tab';

vi.setConfig({ testTimeout: 20_000 });

const EMPTY_SUBSCRIPTION = '7d3f1c2a-5b6e-4f70-8a91-b2c3d4e5f607';
const online = cluster({
  status: 'ONLINE',
  cluster_status: 'ONLINE',
  size: 'S',
  query_engines: 2,
  resizing_to: { size: 'L', query_engines: 4 },
});
const offline = cluster({
  status: 'OFFLINE',
  cluster_status: 'OFFLINE',
  deployment_id: '5f0e1d2c-3b4a-4968-8776-655443322110',
  cluster_name: 'Night_Shift',
});

function renderClusters() {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions: permissionsFor('SYSTEM_ADMIN') }));
  const api = mockApi({
    [`GET /api/admin/view-subscriptions/${CUSTOMER_ID}`]: () =>
      jsonResponse(200, {
        content: [adminSubscription(), adminSubscription({ subscription_id: EMPTY_SUBSCRIPTION, subscription_name: 'Sandbox' })],
        totalPages: 1,
      }),
    'GET /api/admin/cluster/view': () => jsonResponse(200, { content: [online, offline], totalPages: 1 }),
    [`GET /api/admin/node-details-view/${online.deployment_id}`]: () => jsonResponse(200, detailsOf(online, 'CURRENT')),
  });
  // The server answers the subscription with no cluster with an empty page.
  const realFetch = api.fetchMock.getMockImplementation()!;
  api.fetchMock.mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url.includes(`subscriptionId=${EMPTY_SUBSCRIPTION}`)) return jsonResponse(200, { content: [], totalPages: 0 });
    return realFetch(input, init);
  });
  renderRoutes([{ path: '/admin/customers/:userId', element: <ClustersTab userId={CUSTOMER_ID} /> }], `/admin/customers/${CUSTOMER_ID}`);
  return api;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('admin clusters tab', () => {
  it('colours ONLINE green and OFFLINE red', async () => {
    renderClusters();
    const table = await screen.findByRole('table', { name: 'Clusters' });
    const onlineBadge = within(table).getByText('Online').closest('[data-status]')!;
    const offlineBadge = within(table).getByText('Offline').closest('[data-status]')!;
    expect(onlineBadge.getAttribute('style')).toContain('green');
    expect(offlineBadge.getAttribute('style')).toContain('red');
  });

  it('shows each cluster’s size and query engines, and the shape a resize is moving to', async () => {
    renderClusters();
    const table = await screen.findByRole('table', { name: 'Clusters' });
    expect(within(table).getByRole('columnheader', { name: 'Size' })).toBeInTheDocument();
    expect(within(table).getByText('S × 2 → L × 4')).toBeInTheDocument();
    expect(within(table).getByText('M × 5')).toBeInTheDocument();
  });

  it("says the subscription chosen has no cluster in the spec's words", async () => {
    const api = renderClusters();
    await screen.findByRole('table', { name: 'Clusters' });
    await userEvent.click(await screen.findByRole('combobox', { name: 'Subscription' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Sandbox' }));
    expect(await screen.findByText(ADMIN_MESSAGES.noClustersInSubscription)).toBeInTheDocument();
    const asked = api.fetchMock.mock.calls.map(([input]) => (input instanceof Request ? input.url : input.toString()));
    expect(asked.some((url) => url.includes(`subscriptionId=${EMPTY_SUBSCRIPTION}`))).toBe(true);
  });

  it('lists nodes with the columns of spec section 2', async () => {
    renderClusters();
    const table = await screen.findByRole('table', { name: 'Clusters' });
    await userEvent.click(within(table).getByRole('button', { name: `Actions for ${online.cluster_name}` }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'View Details' }));
    const nodes = await screen.findByRole('table', { name: 'Nodes' });
    await waitFor(() =>
      expect(
        within(nodes)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual(['Node', 'Core', 'Node status', 'Service instance', 'Service status', 'Instance type']),
    );
    expect(
      within(nodes)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['qe-1', '8', 'Running', 'Query Engine', 'Online', 'r6i.2xlarge']);
  });
});
