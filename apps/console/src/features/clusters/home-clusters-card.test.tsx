import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, type Cluster } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { cluster, view } from '../../../test/clusters';
import { landed, renderRoutes } from '../../../test/render';
import { keepPolling } from './api/deployment-status';
import { clusterActionsFor } from './cluster-actions';
import { deploymentProgress } from './deployment-progress';
import { HomeClustersCard } from './home-clusters-card';
import { formatDateTime } from '../../lib/dates';

afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

function renderCard(clusters: Cluster[], extra: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /api/cluster/view': () => jsonResponse(200, view(...clusters)), ...extra });
  const rendered = renderRoutes([{ path: '/', element: <HomeClustersCard /> }, landed('/clusters'), landed('/clusters/:s/:d')], '/');
  return { ...rendered, ...api };
}

const menuItems = async () => (await screen.findAllByRole('menuitem')).map((item) => item.textContent);

describe("home's clusters table", () => {
  it('when empty says so and opens the create dialog on the clusters page', async () => {
    const { router } = renderCard([]);
    expect(await screen.findByText(CLUSTER_MESSAGES.noClusterDeployed)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New Cluster' }));
    expect(router.state.location.pathname).toBe('/clusters');
    expect(router.state.location.state).toEqual({ openCreateCluster: true });
  });

  it("lists the spec's columns (name, status, QE capacity, region, subscription, deployed on), with the row menu each status allows", async () => {
    const online = cluster({ cluster_name: 'Alpha', cluster_capacity: 4 });
    const offline = cluster({ cluster_name: 'Beta', status: 'OFFLINE', region: 'eu-west-1' });
    const deploying = cluster({ cluster_name: 'Gamma', status: 'DEPLOYING', deployed_on: null });
    const { router } = renderCard([online, offline, deploying]);
    const table = await screen.findByRole('table', { name: 'Clusters' });
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Status', 'QE capacity', 'Region', 'Subscription', 'Deployed on', 'Actions']);
    const deployedOn = formatDateTime(online.deployed_on);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Alpha', 'Online', '', 'us-east-1', 'Analytics', deployedOn, ''],
      ['Beta', 'Offline', '—', 'eu-west-1', 'Analytics', deployedOn, ''],
      ['Gamma', 'Deploying...', '—', 'us-east-1', 'Analytics', '—', ''],
    ]);
    expect(within(rows[0]!).getByRole('img', { name: 'Capacity 4 of 5' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Alpha' }));
    expect(await menuItems()).toEqual(['Go to Cluster', 'Stop']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Stop' }));
    expect(await screen.findByRole('dialog', { name: 'Stop cluster' })).toHaveTextContent('Alpha');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Beta' }));
    expect(await menuItems()).toEqual(['Go to Cluster', 'Start']);
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Gamma' }));
    expect(await menuItems()).toEqual(['Go to Cluster']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Go to Cluster' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/clusters/${deploying.subscription_id}/${deploying.deployment_id}`));
  });

  it('starts an offline cluster from its row', async () => {
    const offline = cluster({ cluster_name: 'Beta', status: 'OFFLINE' });
    const { bodiesOf } = renderCard([offline], {
      [`POST /api/cluster/start/${offline.deployment_id}`]: () =>
        jsonResponse(200, { deployment_id: offline.deployment_id, status: 'STARTING', message: CLUSTER_MESSAGES.startStarted }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Beta' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Start' }));
    await waitFor(() => expect(bodiesOf(`POST /api/cluster/start/${offline.deployment_id}`)).toHaveLength(1));
  });
});

describe('cluster rules', () => {
  it('polls every 15 seconds only while a cluster moves (spec section 4)', () => {
    const reading = (status: Cluster['status'], deployment: Cluster['kumo_cluster_deployment_status'] = null) => ({
      status,
      cluster_capacity: 0,
      cluster_stack_status: null,
      kumo_cluster_deployment_status: deployment,
      created_at: '2026-11-01T08:00:00.000Z',
      completed_at: null,
    });
    for (const status of ['DEPLOYING', 'STARTING', 'STOPPING', 'DELETING', 'DELETE_IN_PROGRESS'] as const) {
      expect(keepPolling(reading(status)), status).toBe(true);
    }
    for (const status of ['ONLINE', 'OFFLINE', 'FAILED', 'DELETED', 'DELETED_PARTIALLY'] as const) {
      expect(keepPolling(reading(status)), status).toBe(false);
    }
    expect(keepPolling(reading('DEPLOYING', 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'))).toBe(false);
    expect(keepPolling(undefined)).toBe(false);
  });

  it('offers Start when offline, Stop when online, nothing while deploying, and disables all while moving', () => {
    expect(clusterActionsFor('OFFLINE', false)).toMatchObject({ start: true, stop: false, menu: true, deleteItem: true, disabled: false });
    expect(clusterActionsFor('ONLINE', false)).toMatchObject({ start: false, stop: true, menu: true, disabled: false });
    expect(clusterActionsFor('DEPLOYING', false)).toMatchObject({ start: false, stop: false, menu: false });
    expect(clusterActionsFor('FAILED', false)).toMatchObject({ start: false, stop: false, menu: true, deleteEnabled: true });
    expect(clusterActionsFor('STARTING', false)).toMatchObject({ start: true, disabled: true });
    expect(clusterActionsFor('DELETING', false)).toMatchObject({ menu: true, disabled: true, deleteEnabled: false });
    // A start or stop on its way hides Delete.
    expect(clusterActionsFor('ONLINE', true)).toMatchObject({ deleteItem: false, disabled: true });
  });

  it('sums the deployment steps up in the spec’s sentences', () => {
    expect(deploymentProgress('DEPLOYING', 'CREATE_IN_PROGRESS', null).headline).toBe(CLUSTER_MESSAGES.deploymentInProgress);
    expect(deploymentProgress('DEPLOYING', 'CREATE_COMPLETE', 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS').steps.map((s) => s.state)).toEqual([
      'success',
      'success',
      'progress',
    ]);
    const failed = deploymentProgress('FAILED', 'ROLLBACK_COMPLETE', null);
    expect(failed.headline).toBe(CLUSTER_MESSAGES.deploymentFailed);
    expect(failed.steps.map((s) => s.state)).toEqual(['success', 'error', 'default']);
    // Failed before any status said so: the step it stopped at shows the error.
    expect(deploymentProgress('FAILED', null, null).steps.map((s) => s.state)).toEqual(['success', 'error', 'default']);
    expect(deploymentProgress('ONLINE', 'CREATE_COMPLETE', 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE').headline).toBe(
      CLUSTER_MESSAGES.deploymentCompleted,
    );
  });
});
