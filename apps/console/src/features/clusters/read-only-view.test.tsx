import { cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Cluster } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { cluster, detailsOf, statusOf, view } from '../../../test/clusters';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { READ_ONLY_VIEW_REASON } from '../../lib/read-only-view';
import { enterCustomerView, saveTokens, saveUser } from '../../lib/session';
import { ClustersPage } from './clusters-page';
import { HomeClustersCard } from './home-clusters-card';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const staff = userDetail({ userName: 'Sue Support', emailId: 'sue@kumo.test', role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null });
const viewed = userDetail({ userSwitched: { userName: 'Sue Support', emailId: 'sue@kumo.test', expiresAt: '2026-03-10T09:30:00.000Z' } });

/** Signed in as the customer, or as staff viewing the customer's console (userSwitched). */
function signIn(asStaffView: boolean): void {
  if (asStaffView) {
    saveTokens('staff-jwt', 'staff-refresh');
    saveUser(staff);
    enterCustomerView('view-jwt', 'view-refresh');
    saveUser(viewed);
  } else {
    saveTokens('owner-jwt', 'owner-refresh');
    saveUser(userDetail());
  }
}

function apiFor(clusters: Cluster[]) {
  const handlers: Parameters<typeof mockApi>[0] = {
    'GET /api/cluster/view': () => jsonResponse(200, view(...clusters)),
    'GET /api/subscription/list': () => jsonResponse(200, []),
  };
  for (const c of clusters) {
    handlers[`GET /api/cluster/deployment-details/status/${c.deployment_id}`] = () => jsonResponse(200, statusOf(c));
    handlers[`GET /api/cluster/details/${c.deployment_id}`] = () => jsonResponse(200, detailsOf(c));
    handlers[`GET /api/cluster/timeline/${c.deployment_id}`] = () =>
      jsonResponse(200, { deployment_id: c.deployment_id, days: [], next_before: null });
    handlers[`GET /api/cluster/schedule/${c.deployment_id}`] = () =>
      jsonResponse(200, {
        deployment_id: c.deployment_id,
        enabled: true,
        time_zone: 'UTC',
        rules: [],
        next_run_at: null,
        next_action: null,
      });
  }
  return mockApi(handlers);
}

function renderClusterPage(c: Cluster, asStaffView: boolean) {
  signIn(asStaffView);
  apiFor([c]);
  renderRoutes(
    [{ path: '/clusters/:subscriptionId/:deploymentId', element: <ClustersPage /> }],
    `/clusters/${c.subscription_id}/${c.deployment_id}`,
  );
}

const online = cluster({ cluster_name: 'Alpha' });
const offline = cluster({ cluster_name: 'Beta', status: 'OFFLINE' });

describe("clusters in a staff member's read-only view of the customer's console", () => {
  it.each([
    { state: 'online', c: online, power: 'Stop' },
    { state: 'offline', c: offline, power: 'Start' },
  ])(
    'an $state cluster offers the customer $power, Delete, New and Save schedule; the view none of them, saying why',
    async ({ c, power }) => {
      renderClusterPage(c, false);
      await screen.findByRole('heading', { level: 2, name: c.cluster_name });
      expect(screen.getByRole('button', { name: power })).toBeEnabled();
      expect(screen.getByRole('button', { name: `More actions for ${c.cluster_name}` })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'New' })).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: 'Save schedule' })).toBeInTheDocument();
      cleanup();
      localStorage.clear();

      renderClusterPage(c, true);
      await screen.findByRole('heading', { level: 2, name: c.cluster_name });
      expect(screen.getByText('Read-only view').closest('[title]')).toHaveAttribute('title', READ_ONLY_VIEW_REASON);
      for (const name of ['Start', 'Stop', 'New']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: `More actions for ${c.cluster_name}` })).not.toBeInTheDocument();
      // The schedule shows as it is, unchangeable, with the reason instead of Save.
      expect(await screen.findByText(READ_ONLY_VIEW_REASON)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Save schedule' })).not.toBeInTheDocument();
      expect(screen.getByRole('switch', { name: /weekly schedule/ })).toBeDisabled();
      expect(screen.getByLabelText('Start on Monday')).toBeDisabled();
    },
  );

  it("home's clusters table offers only Go to Cluster, and no New Cluster", async () => {
    signIn(true);
    apiFor([online, offline]);
    renderRoutes([{ path: '/', element: <HomeClustersCard /> }, landed('/clusters/:s/:d')], '/');
    const table = await screen.findByRole('table', { name: 'Clusters' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'New Cluster' })).not.toBeInTheDocument();
    for (const name of ['Alpha', 'Beta']) {
      await userEvent.click(screen.getByRole('button', { name: `Actions for ${name}` }));
      expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Go to Cluster']);
      await userEvent.keyboard('{Escape}');
    }
  });
});
