import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, MESSAGES, UI_TIMING, type Cluster } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi, pathOf as pathOfCall } from '../../../test/api';
import { OTHER_SUBSCRIPTION_ID, cluster, detailsOf, statusOf, view } from '../../../test/clusters';
import { renderRoutes } from '../../../test/render';
import { documentTitle } from '../../app/document-title';
import { Breadcrumb } from '../../app/shell/breadcrumb';
import { CUSTOMER_SECTIONS } from '../../app/shell/sections';
import { getActiveNames } from '../../lib/active-names';
import { ClustersPage } from './clusters-page';

afterEach(() => vi.unstubAllGlobals());
// The page chains several calls (list, status, details); a busy machine needs more than the defaults.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const OPERATION_ID = '11111111-2222-4333-8444-555555555555';

/** The API as the page sees it for these clusters; `extra` adds or replaces handlers. */
function renderPage(path: string | { pathname: string; state: unknown }, clusters: Cluster[], extra: Parameters<typeof mockApi>[0] = {}) {
  const handlers: Parameters<typeof mockApi>[0] = {
    'GET /api/cluster/view': () => jsonResponse(200, view(...clusters)),
    'GET /api/subscription/list': () => jsonResponse(200, []),
    'GET /api/cluster/region-mapping': () => jsonResponse(200, { region_mapping: [] }),
    'GET /api/cluster/check-kumo-ea-version': () => jsonResponse(200, { kumo_ea_version_enabled: false }),
    'GET /api/cluster/kumo-versions': () => jsonResponse(200, { kumo_versions: [] }),
  };
  for (const c of clusters) {
    handlers[`GET /api/cluster/deployment-details/status/${c.deployment_id}`] = () => jsonResponse(200, statusOf(c));
    handlers[`GET /api/cluster/details/${c.deployment_id}`] = () => jsonResponse(200, detailsOf(c));
    handlers[`GET /api/cluster/timeline/${c.deployment_id}`] = () =>
      jsonResponse(200, { deployment_id: c.deployment_id, days: [], next_before: null });
    handlers[`GET /api/cluster/schedule/${c.deployment_id}`] = () =>
      jsonResponse(200, {
        deployment_id: c.deployment_id,
        enabled: false,
        time_zone: 'UTC',
        rules: [],
        next_run_at: null,
        next_action: null,
      });
  }
  const api = mockApi({ ...handlers, ...extra });
  const view_ = renderRoutes(
    [
      { path: '/clusters', element: <ClustersPage /> },
      { path: '/clusters/:subscriptionId', element: <ClustersPage /> },
      {
        path: '/clusters/:subscriptionId/:deploymentId',
        element: (
          <>
            <Breadcrumb sectionSet={CUSTOMER_SECTIONS} />
            <ClustersPage />
          </>
        ),
      },
    ],
    path,
  );
  return { ...view_, ...api };
}

const pathOf = (c: Cluster) => `/clusters/${c.subscription_id}/${c.deployment_id}`;
const statusText = () =>
  within(screen.getByRole('group', { name: 'Status' })).getByText((_, element) => !!element?.hasAttribute('data-status'));

describe('clusters page: routes and empty states', () => {
  it('with no clusters stays on /clusters and says so, with no details', async () => {
    const { router } = renderPage('/clusters/5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f/00000000-0000-4000-8000-000000000999', []);
    expect(await screen.findByText(CLUSTER_MESSAGES.noClusterClickNew)).toBeInTheDocument();
    expect(await screen.findByText(CLUSTER_MESSAGES.clusterDetailsUnavailable)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/clusters'));
  });

  it('sends an unknown id to the first cluster, and a subscription path to its own first cluster', async () => {
    const first = cluster({ cluster_name: 'Alpha' });
    const other = cluster({ cluster_name: 'Beta', subscription_id: OTHER_SUBSCRIPTION_ID, subscription_name: 'Staging' });
    const { router } = renderPage(`/clusters/${OTHER_SUBSCRIPTION_ID}`, [first, other]);
    await waitFor(() => expect(router.state.location.pathname).toBe(pathOf(other)));
    expect(await screen.findByRole('heading', { level: 2, name: 'Beta' })).toBeInTheDocument();

    await router.navigate(`/clusters/${first.subscription_id}/00000000-0000-4000-8000-000000000999`);
    await waitFor(() => expect(router.state.location.pathname).toBe(pathOf(first)));
  });

  it('lists clusters by subscription, leaves deleted ones out and names the selection for the title and breadcrumb', async () => {
    const alpha = cluster({ cluster_name: 'Alpha' });
    const gone = cluster({ cluster_name: 'Gone', status: 'DELETED' });
    const beta = cluster({ cluster_name: 'Beta', subscription_id: OTHER_SUBSCRIPTION_ID, subscription_name: 'Staging' });
    renderPage(pathOf(beta), [alpha, gone, beta]);
    const list = await screen.findByRole('navigation', { name: 'Clusters' });
    expect(within(list).getByRole('group', { name: 'Analytics' })).toHaveTextContent('Alpha');
    expect(within(list).getByRole('group', { name: 'Staging' })).toHaveTextContent('Beta');
    expect(within(list).queryByText('Gone')).not.toBeInTheDocument();
    await waitFor(() => expect(getActiveNames()).toEqual({ cluster: 'Beta', subscription: 'Staging' }));
    expect(documentTitle(pathOf(beta), getActiveNames())).toBe('Beta - Staging - Clusters | Kumo Cloud');
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Staging' })).toHaveAttribute('href', `/subscriptions/${OTHER_SUBSCRIPTION_ID}`);
    expect(within(breadcrumb).getByText('Beta')).toHaveAttribute('aria-current', 'page');
  });

  it('opens the create dialog from navigation state and clears the state', async () => {
    const { router } = renderPage({ pathname: '/clusters', state: { openCreateCluster: true } }, []);
    expect(await screen.findByRole('dialog', { name: 'New Cluster' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(router.state.location.pathname).toBe('/clusters');
  });

  it('shows a failed list call in place of the list', async () => {
    renderPage('/clusters', [], { 'GET /api/cluster/view': () => errorResponse(500, 'INTERNAL_ERROR', MESSAGES.internal) });
    // The message is read out as an alert (the ErrorAlert's root carries the role, its text sits inside).
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.internal);
  });
});

describe('clusters page: a cluster in each state', () => {
  it('online: green status, capacity, links to the manager and portal, Stop and the Delete menu', async () => {
    const online = cluster({ cluster_name: 'Alpha', cluster_capacity: 3 });
    renderPage(pathOf(online), [online]);
    await screen.findByRole('heading', { level: 2, name: 'Alpha' });
    expect(statusText()).toHaveTextContent('Online');
    expect(screen.getByRole('img', { name: 'Capacity 3 of 5' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Capacity' })).toHaveTextContent('Moderate');
    // Both open with an address signed for the person at that moment (manager-access.test.tsx), never the listed one.
    for (const name of ['Kumo Manager', 'Web Portal']) expect(screen.getByRole('button', { name })).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByRole('link', { name: 'Web Portal' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Start' })).not.toBeInTheDocument();
    for (const tab of ['Overview', 'Cost Analysis', 'Audit Logs', 'Manager Access', 'Deployment Details']) {
      expect(screen.getByRole('tab', { name: tab })).toBeEnabled();
    }
    expect(await screen.findByRole('table', { name: 'Nodes' })).toHaveTextContent('qe-1');

    await userEvent.click(screen.getByRole('button', { name: 'More actions for Alpha' }));
    expect(await screen.findByRole('menuitem', { name: 'Delete' })).toBeEnabled();
  });

  it('offline: red status, Start, no links', async () => {
    const offline = cluster({ cluster_name: 'Alpha', status: 'OFFLINE' });
    renderPage(pathOf(offline), [offline]);
    await screen.findByRole('heading', { level: 2, name: 'Alpha' });
    expect(statusText()).toHaveTextContent('Offline');
    expect(screen.getByRole('button', { name: 'Start' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    // Off, but reachable by keyboard with the reason read out.
    for (const [name, reason] of [
      ['Kumo Manager', CLUSTER_MESSAGES.managerUnavailable],
      ['Web Portal', CLUSTER_MESSAGES.portalUnavailable],
    ] as const) {
      expect(screen.getByRole('button', { name })).toHaveAttribute('aria-disabled', 'true');
      expect(screen.getByRole('button', { name })).toHaveAccessibleDescription(reason);
    }
  });

  it('deploying: animated status, the steps in progress, only Deployment Details, nothing to do', async () => {
    const deploying = cluster({ cluster_name: 'Alpha', status: 'DEPLOYING' });
    renderPage(pathOf(deploying), [deploying]);
    await screen.findByRole('heading', { level: 2, name: 'Alpha' });
    expect(statusText()).toHaveTextContent('Deploying...');
    expect(screen.getAllByTestId('animated-dots').length).toBeGreaterThan(0);
    for (const tab of ['Overview', 'Cost Analysis', 'Audit Logs', 'Manager Access'])
      expect(screen.getByRole('tab', { name: tab })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Deployment Details' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(CLUSTER_MESSAGES.deploymentInProgress)).toBeInTheDocument();
    expect(screen.getByText(CLUSTER_MESSAGES.deploymentTakesAnHour)).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Deployment steps' })).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('data-state'))).toEqual(['success', 'progress', 'default']);
    expect(screen.queryByRole('button', { name: /Start|Stop|More actions/ })).not.toBeInTheDocument();
  });

  it('failed: the failed step and message, Delete still offered', async () => {
    const failed = cluster({ cluster_name: 'Alpha', status: 'FAILED' });
    renderPage(pathOf(failed), [failed]);
    await screen.findByRole('heading', { level: 2, name: 'Alpha' });
    expect(statusText()).toHaveTextContent('Deployment Failed');
    expect(screen.getByText(CLUSTER_MESSAGES.deploymentFailed)).toBeInTheDocument();
    const steps = screen.getByRole('list', { name: 'Deployment steps' });
    expect(within(steps).getByText('Failed')).toBeInTheDocument();
    expect(within(steps).getByRole('listitem', { name: 'Creating resources: failed' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Overview' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Start' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'More actions for Alpha' })).toBeEnabled();
  });

  it('stopping: every action disabled while it moves', async () => {
    const stopping = cluster({ cluster_name: 'Alpha', status: 'STOPPING' });
    renderPage(pathOf(stopping), [stopping]);
    await screen.findByRole('heading', { level: 2, name: 'Alpha' });
    expect(statusText()).toHaveTextContent('Stopping...');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'More actions for Alpha' })).toBeDisabled();
  });
});

describe('clusters page: a status reading that fails', () => {
  afterEach(() => vi.useRealTimers());

  it('says so, is tried again every 15 seconds, stops after three failures in a row, and Check again reads once more', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const deploying = cluster({ cluster_name: 'Alpha', status: 'DEPLOYING' });
    const statusCall = `GET /api/cluster/deployment-details/status/${deploying.deployment_id}`;
    let answer = () => jsonResponse(200, statusOf(deploying));
    const { bodiesOf } = renderPage(pathOf(deploying), [deploying], { [statusCall]: () => answer() });
    await screen.findByRole('heading', { level: 2, name: 'Alpha' });
    await waitFor(() => expect(bodiesOf(statusCall)).toHaveLength(1));
    const readingAlert = () => screen.queryByText(/^The status shown may be out of date/)?.closest('[role="alert"]');

    // A gateway's bare 502: the spec's default text for a failed status poll, and the last reading stays.
    answer = () => new Response('Bad gateway', { status: 502 });
    await vi.advanceTimersByTimeAsync(UI_TIMING.pollingMs);
    await waitFor(() => expect(readingAlert()).toHaveTextContent(CLUSTER_MESSAGES.statusRetrying));
    expect(readingAlert()).toHaveTextContent(MESSAGES.internal);
    expect(screen.queryByRole('button', { name: CLUSTER_MESSAGES.statusCheckAgain })).not.toBeInTheDocument();
    expect(statusText()).toHaveTextContent('Deploying...');

    await vi.advanceTimersByTimeAsync(2 * UI_TIMING.pollingMs);
    await waitFor(() => expect(readingAlert()).toHaveTextContent(CLUSTER_MESSAGES.statusPollStopped));
    expect(bodiesOf(statusCall)).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(4 * UI_TIMING.pollingMs);
    expect(bodiesOf(statusCall)).toHaveLength(4);

    answer = () => jsonResponse(200, statusOf(deploying));
    await user.click(screen.getByRole('button', { name: CLUSTER_MESSAGES.statusCheckAgain }));
    await waitFor(() => expect(readingAlert()).toBeFalsy());
    expect(bodiesOf(statusCall)).toHaveLength(5);
    // The cluster still deploys, so the poll has started again.
    await vi.advanceTimersByTimeAsync(UI_TIMING.pollingMs);
    await waitFor(() => expect(bodiesOf(statusCall)).toHaveLength(6));
  });

  it("shows the server's own message when it sends one", async () => {
    const online = cluster({ cluster_name: 'Alpha' });
    const statusCall = `GET /api/cluster/deployment-details/status/${online.deployment_id}`;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPage(pathOf(online), [online], {
      [statusCall]: () => errorResponse(404, 'NOT_FOUND', CLUSTER_MESSAGES.clusterDetailsUnavailable),
    });
    const alert = (await screen.findByText(CLUSTER_MESSAGES.statusRetrying)).closest('[role="alert"]');
    expect(alert).toHaveTextContent(CLUSTER_MESSAGES.clusterDetailsUnavailable);
  });
});

describe('clusters page: actions', () => {
  it('stops only after the confirmation, then refreshes the list', async () => {
    const online = cluster({ cluster_name: 'Alpha' });
    const { bodiesOf, fetchMock } = renderPage(pathOf(online), [online], {
      [`POST /api/cluster/stop/${online.deployment_id}`]: () =>
        jsonResponse(200, { deployment_id: online.deployment_id, status: 'STOPPING', message: CLUSTER_MESSAGES.stopStarted }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop cluster' });
    expect(bodiesOf(`POST /api/cluster/stop/${online.deployment_id}`)).toHaveLength(0);
    const viewCalls = () => fetchMock.mock.calls.filter(([input]) => pathOfCall(input).startsWith('/api/cluster/view')).length;
    const before = viewCalls();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(bodiesOf(`POST /api/cluster/stop/${online.deployment_id}`)).toHaveLength(1));
    await waitFor(() => expect(viewCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Stop cluster' })).not.toBeInTheDocument());
  });

  it('deletes with the approver OTP: a wrong one is said and cleared, the right one gives the deletion message', async () => {
    const online = cluster({ cluster_name: 'Alpha' });
    let attempts = 0;
    const { bodiesOf } = renderPage(pathOf(online), [online], {
      'POST /api/user/operation': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, message: 'sent', approver_email: 'olive@example.com', sent_to_you: false }),
      'POST /api/user/operation/resend-otp': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, status: 'PENDING_APPROVAL', message: 'resent' }),
      'POST /api/user/operation/authenticate': () => {
        attempts += 1;
        return attempts === 1
          ? errorResponse(400, 'OTP_INVALID', MESSAGES.otpInvalid)
          : jsonResponse(200, { operation_id: OPERATION_ID, status: 'APPROVED', message: 'ok' });
      },
      [`GET /api/cluster/operation/status/${OPERATION_ID}`]: () =>
        jsonResponse(200, {
          operation_id: OPERATION_ID,
          action_name: 'customer_delete_cluster',
          status: 'APPROVED',
          deployment_id: online.deployment_id,
          cluster_name: 'Alpha',
          subscription_name: 'Analytics',
          cluster_status: 'DELETING',
          expires_at: '2026-11-01T10:00:00.000Z',
        }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'More actions for Alpha' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete cluster' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    // The OTP went to the account owner, named by her e-mail; never to an unnamed "approver".
    expect(
      await within(dialog).findByText(
        'An OTP has been sent to the account owner at olive@example.com. Get the OTP from them and enter it below.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/to approver/)).not.toBeInTheDocument();
    expect(bodiesOf('POST /api/user/operation')).toEqual([
      { action_name: 'customer_delete_cluster', action_payload: { deployment_id: online.deployment_id } },
    ]);

    const otp = within(dialog).getByLabelText('One-time password');
    expect(within(dialog).getByRole('button', { name: 'Verify' })).toBeDisabled();
    await userEvent.type(otp, '12ab3456');
    expect(otp).toHaveValue('123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await within(dialog).findByText(MESSAGES.otpInvalid)).toBeInTheDocument();
    expect(otp).toHaveValue('');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await within(dialog).findByText('A new OTP has been sent to the account owner at olive@example.com.')).toBeInTheDocument();
    expect(bodiesOf('POST /api/user/operation/resend-otp')).toEqual([{ operation_id: OPERATION_ID }]);

    await userEvent.type(otp, '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(
      await within(dialog).findByText(
        'Deletion of the Alpha cluster for Analytics has started and will be completed within the next 5-10 minutes.',
      ),
    ).toBeInTheDocument();
    expect(bodiesOf('POST /api/user/operation/authenticate').at(-1)).toEqual({ operation_id: OPERATION_ID, otp: '654321' });
  });

  it('tells the owner deleting a cluster that the OTP went to her', async () => {
    const online = cluster({ cluster_name: 'Alpha' });
    renderPage(pathOf(online), [online], {
      'POST /api/user/operation': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, message: 'sent', approver_email: 'olive@example.com', sent_to_you: true }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'More actions for Alpha' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete cluster' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('An OTP has been sent to you at olive@example.com. Enter it below to approve the deletion.'),
    ).toBeInTheDocument();
  });

  it('shows a refused start as an error toast text', async () => {
    const offline = cluster({ cluster_name: 'Alpha', status: 'OFFLINE' });
    const { bodiesOf } = renderPage(pathOf(offline), [offline], {
      [`POST /api/cluster/start/${offline.deployment_id}`]: () =>
        errorResponse(422, 'INSUFFICIENT_BALANCE', CLUSTER_MESSAGES.insufficientBalance),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start' }));
    // Start asks first, then sends.
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Start cluster' })).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(bodiesOf(`POST /api/cluster/start/${offline.deployment_id}`)).toHaveLength(1));
  });
});
