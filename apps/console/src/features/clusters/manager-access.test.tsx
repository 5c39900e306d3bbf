import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, MESSAGES, type Cluster, type ManagerAccessLevel, type ManagerAccessResponse } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { autoStopOf, cluster, detailsOf, statusOf, view } from '../../../test/clusters';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { ClustersPage } from './clusters-page';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const OWNER = '10000000-0000-4000-8000-000000000001';
const ADMIN = '10000000-0000-4000-8000-000000000002';
const MEMBER = '10000000-0000-4000-8000-000000000003';

function accessOf(
  c: Cluster,
  levels: [ManagerAccessLevel, ManagerAccessLevel, ManagerAccessLevel],
  mine?: ManagerAccessLevel,
): ManagerAccessResponse {
  return {
    deployment_id: c.deployment_id,
    users: [
      { user_id: OWNER, user_name: 'Olga Owner', email_id: 'olga@example.com', role: 'ACCOUNT_OWNER', access_level: levels[0] },
      { user_id: ADMIN, user_name: 'Ada Admin', email_id: 'ada@example.com', role: 'ACCOUNT_ADMIN', access_level: levels[1] },
      { user_id: MEMBER, user_name: 'Mel Member', email_id: 'mel@example.com', role: 'CLUSTER_MEMBER', access_level: levels[2] },
    ],
    my_access_level: mine ?? levels[0],
  };
}

function renderCluster(c: Cluster, handlers: Parameters<typeof mockApi>[0]) {
  saveTokens('owner-jwt', 'owner-refresh');
  saveUser(userDetail());
  const api = mockApi({
    'GET /api/cluster/view': () => jsonResponse(200, view(c)),
    'GET /api/subscription/list': () => jsonResponse(200, []),
    [`GET /api/cluster/deployment-details/status/${c.deployment_id}`]: () => jsonResponse(200, statusOf(c)),
    [`GET /api/cluster/details/${c.deployment_id}`]: () => jsonResponse(200, detailsOf(c)),
    [`GET /api/cluster/auto-stop/${c.deployment_id}`]: () => jsonResponse(200, autoStopOf(c)),
    [`GET /api/cluster/timeline/${c.deployment_id}`]: () =>
      jsonResponse(200, { deployment_id: c.deployment_id, days: [], next_before: null }),
    [`GET /api/cluster/schedule/${c.deployment_id}`]: () =>
      jsonResponse(200, {
        deployment_id: c.deployment_id,
        enabled: false,
        time_zone: 'UTC',
        rules: [],
        next_run_at: null,
        next_action: null,
      }),
    ...handlers,
  });
  renderRoutes(
    [{ path: '/clusters/:subscriptionId/:deploymentId', element: <ClustersPage /> }],
    `/clusters/${c.subscription_id}/${c.deployment_id}`,
  );
  return api;
}

async function openAccessTab(c: Cluster) {
  await screen.findByRole('heading', { level: 2, name: c.cluster_name });
  await userEvent.click(screen.getByRole('tab', { name: 'Manager Access' }));
  return screen.findByRole('table', { name: 'Manager access' });
}

describe('manager access levels of a cluster', () => {
  it('keeps someone with administrative privileges: the message shows and Save stays off until one is kept', async () => {
    const c = cluster({ cluster_name: 'Alpha' });
    const api = renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'NO_ADMIN_ACCESS'])),
      [`PUT /api/cluster/manager-access/${c.deployment_id}`]: () => jsonResponse(200, accessOf(c, ['LIMITED', 'FULL_ADMIN', 'LIMITED'])),
    });
    const table = await openAccessTab(c);
    const save = screen.getByRole('button', { name: 'Save access' });
    expect(save).toBeDisabled();
    expect(within(table).getByRole('combobox', { name: 'Access level of Mel Member' })).toHaveValue('NO_ADMIN_ACCESS');

    await userEvent.selectOptions(within(table).getByRole('combobox', { name: 'Access level of Olga Owner' }), 'LIMITED');
    await userEvent.selectOptions(within(table).getByRole('combobox', { name: 'Access level of Ada Admin' }), 'NO_ADMIN_ACCESS');
    expect(screen.getByRole('alert')).toHaveTextContent(CLUSTER_MESSAGES.managerAccessOneAdmin);
    expect(save).toBeDisabled();

    await userEvent.selectOptions(within(table).getByRole('combobox', { name: 'Access level of Ada Admin' }), 'FULL_ADMIN');
    await userEvent.selectOptions(within(table).getByRole('combobox', { name: 'Access level of Mel Member' }), 'LIMITED');
    expect(screen.queryByText(CLUSTER_MESSAGES.managerAccessOneAdmin)).not.toBeInTheDocument();
    await userEvent.click(save);
    // The saved levels come back and become the form's starting point.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save access' })).toBeDisabled());
    expect(screen.getByRole('combobox', { name: 'Access level of Olga Owner' })).toHaveValue('LIMITED');
    expect(screen.getByRole('combobox', { name: 'Access level of Mel Member' })).toHaveValue('LIMITED');
    expect(api.bodiesOf(`PUT /api/cluster/manager-access/${c.deployment_id}`)).toEqual([
      {
        changes: [
          { user_id: OWNER, access_level: 'LIMITED' },
          { user_id: MEMBER, access_level: 'LIMITED' },
        ],
      },
    ]);
  });

  it('says a failed change could not be made, with the reason when the server gave one', async () => {
    const c = cluster({ cluster_name: 'Beta' });
    renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'NO_ADMIN_ACCESS'])),
      [`PUT /api/cluster/manager-access/${c.deployment_id}`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const table = await openAccessTab(c);
    await userEvent.selectOptions(within(table).getByRole('combobox', { name: 'Access level of Mel Member' }), 'LIMITED');
    await userEvent.click(screen.getByRole('button', { name: 'Save access' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CLUSTER_MESSAGES.managerAccessFailed);
    expect(alert).toHaveTextContent(MESSAGES.noResponse);
  });
});

describe('Kumo Manager', () => {
  const popupStub = () => {
    const popup = { document: { title: '', body: { textContent: '' } }, close: vi.fn(), location: { replace: vi.fn() }, opener: {} };
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    return popup;
  };

  it('is off, with its reason reachable by keyboard, for a person with No admin access', async () => {
    const c = cluster({ cluster_name: 'Gamma' });
    const open = vi.spyOn(window, 'open');
    renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'NO_ADMIN_ACCESS'], 'NO_ADMIN_ACCESS')),
    });
    await screen.findByRole('heading', { level: 2, name: c.cluster_name });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Kumo Manager' })).toHaveAttribute('aria-disabled', 'true'));
    const manager = screen.getByRole('button', { name: 'Kumo Manager' });
    expect(manager).toHaveAccessibleDescription(CLUSTER_MESSAGES.managerNoAccess);
    manager.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(CLUSTER_MESSAGES.managerNoAccess);
    await userEvent.click(manager);
    expect(open).not.toHaveBeenCalled();
  });

  const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());
  const ssoPath = (c: Cluster) => `GET /api/cluster/kumo/sso/${c.deployment_id}`;
  const ticket = (url: string) => jsonResponse(200, { url, expires_at: '2026-11-25T16:01:00.000Z', access_level: 'FULL_ADMIN' });

  it("says Opening manager while it asks for the person's own ticket, then sends the window there", async () => {
    const c = cluster({ cluster_name: 'Delta' });
    const popup = popupStub();
    let answer: (response: Response) => void = () => undefined;
    const api = renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'LIMITED'])),
      [ssoPath(c)]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await screen.findByRole('heading', { level: 2, name: c.cluster_name });
    await userEvent.click(screen.getByRole('button', { name: 'Kumo Manager' }));
    expect(await screen.findByRole('button', { name: CLUSTER_MESSAGES.managerOpening })).toBeInTheDocument();
    expect(popup.document.body.textContent).toContain(CLUSTER_MESSAGES.managerOpening);
    answer(ticket('https://km.example/fresh?sso=t'));
    await waitFor(() => expect(popup.location.replace).toHaveBeenCalledWith('https://km.example/fresh?sso=t'));
    expect(popup.opener).toBeNull();
    expect(await screen.findByRole('button', { name: 'Kumo Manager' })).toBeInTheDocument();
    const asked = api.fetchMock.mock.calls.map(([input]) => urlOf(input)).filter((url) => url.includes('/kumo/sso/'));
    expect(asked).toEqual([`/api/cluster/kumo/sso/${c.deployment_id}?page=manager`]);
  });

  it('opens the Web Portal the same way, with a ticket for the portal', async () => {
    const c = cluster({ cluster_name: 'Zeta' });
    const popup = popupStub();
    const api = renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'LIMITED'])),
      [ssoPath(c)]: () => ticket('https://portal.example/?sso=p'),
    });
    await screen.findByRole('heading', { level: 2, name: c.cluster_name });
    expect(screen.queryByRole('link', { name: 'Web Portal' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Web Portal' }));
    await waitFor(() => expect(popup.location.replace).toHaveBeenCalledWith('https://portal.example/?sso=p'));
    expect(api.fetchMock.mock.calls.map(([input]) => urlOf(input))).toContain(`/api/cluster/kumo/sso/${c.deployment_id}?page=portal`);
  });

  it.each([
    { case: 'an address that is not a URL', reply: () => ticket('km:/nowhere'), message: CLUSTER_MESSAGES.managerInvalidUrl },
    { case: 'no address', reply: () => ticket(''), message: CLUSTER_MESSAGES.managerInvalidUrl },
    {
      case: 'a failed request',
      reply: () => errorResponse(500, 'INTERNAL_ERROR', 'Internal Server Error'),
      message: CLUSTER_MESSAGES.managerOpenFailed,
    },
    {
      case: 'a refusal (the level changed meanwhile)',
      reply: () => errorResponse(403, 'FORBIDDEN', CLUSTER_MESSAGES.managerNoAccess),
      message: CLUSTER_MESSAGES.managerNoAccess,
    },
  ])('closes the window and says so for $case', async ({ reply, message }) => {
    const c = cluster({ cluster_name: 'Epsilon' });
    const popup = popupStub();
    renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'LIMITED'])),
      [ssoPath(c)]: reply,
    });
    await screen.findByRole('heading', { level: 2, name: c.cluster_name });
    await userEvent.click(screen.getByRole('button', { name: 'Kumo Manager' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(popup.close).toHaveBeenCalled();
    expect(popup.location.replace).not.toHaveBeenCalled();
  });

  it("says the Web Portal's own text when it cannot be opened", async () => {
    const c = cluster({ cluster_name: 'Eta' });
    const popup = popupStub();
    renderCluster(c, {
      [`GET /api/cluster/manager-access/${c.deployment_id}`]: () =>
        jsonResponse(200, accessOf(c, ['FULL_KMUSER', 'FULL_ADMIN', 'LIMITED'])),
      [ssoPath(c)]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await screen.findByRole('heading', { level: 2, name: c.cluster_name });
    await userEvent.click(screen.getByRole('button', { name: 'Web Portal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CLUSTER_MESSAGES.portalOpenFailed);
    expect(popup.close).toHaveBeenCalled();
  });
});
