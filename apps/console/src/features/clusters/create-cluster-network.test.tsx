import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, NETWORK_ACCESS_MESSAGES } from '@kumo/contract';
import { jsonResponse, mockApi, pathOf } from '../../../test/api';
import { autoStopSaved } from '../../../test/clusters';
import { subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { CreateClusterDialog } from './create-cluster-dialog';

afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 90_000 });

const DEPLOYMENT_ID = '00000000-0000-4000-8000-0000000000aa';
const RICH = subscription({ subscription_name: 'Analytics', total_amount: 500 });
const PASSWORD = 'Str0ng!Passw0rd';

function renderDialog(extra: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    'GET /api/subscription/list': () => jsonResponse(200, [RICH]),
    'GET /api/cluster/region-mapping': () =>
      jsonResponse(200, { region_mapping: [{ region: 'us-east-1', backup_regions: ['us-west-2'] }] }),
    'GET /api/cluster/check-kumo-ea-version': () => jsonResponse(200, { kumo_ea_version_enabled: false }),
    'GET /api/cluster/kumo-versions': () =>
      jsonResponse(200, { kumo_versions: [{ version: '2026.10.1', description: 'GA: current release', default: true }] }),
    'GET /api/cluster/cidr': () => jsonResponse(200, { cidr: '10.7.0.0/16' }),
    'GET /api/user/client-address': () => jsonResponse(200, { client_address: '203.0.113.7' }),
    'POST /api/cluster/create': () =>
      jsonResponse(200, {
        deployment_id: DEPLOYMENT_ID,
        subscription_id: RICH.subscription_id,
        message: CLUSTER_MESSAGES.deploymentStarted,
      }),
    // The create form saves its auto-stop choice on the new cluster as soon as it exists.
    [`PUT /api/cluster/auto-stop/${DEPLOYMENT_ID}`]: (body) => jsonResponse(200, autoStopSaved(DEPLOYMENT_ID, body)),
    ...extra,
  });
  renderRoutes(
    [{ path: '/', element: <CreateClusterDialog opened subscriptionId={undefined} onClose={() => {}} onCreated={() => {}} /> }],
    '/',
  );
  return api;
}

const selectInput = (label: RegExp) =>
  screen
    .getAllByLabelText(label)
    .find((element): element is HTMLInputElement => element instanceof HTMLInputElement && element.type !== 'hidden')!;

async function fillValid() {
  await userEvent.type(screen.getByRole('textbox', { name: /^Cluster Name/ }), 'Analytics-One');
  await userEvent.click(selectInput(/^Region/));
  await userEvent.click(await screen.findByRole('option', { name: 'us-east-1' }));
  await waitFor(() => expect(screen.getByRole('textbox', { name: /^CIDR/ })).toHaveValue('10.7.0.0/16'));
  await userEvent.type(screen.getByLabelText(/^Password/), PASSWORD);
  await userEvent.type(screen.getByLabelText(/^Confirm Password/), PASSWORD);
  await waitFor(() => expect(selectInput(/^Kumo Version/)).toHaveValue('2026.10.1 — GA: current release'));
}

async function deploy() {
  await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
  const review = await screen.findByRole('dialog', { name: 'Review Cluster' });
  const shown = within(review).getByRole('group', { name: 'Network Access' }).textContent;
  await userEvent.click(within(review).getByRole('button', { name: 'Confirm' }));
  return shown;
}

const sentAccess = (bodies: unknown[]) => bodies.map((body) => (body as { network_access: unknown }).network_access);

describe('create form: network access', () => {
  it('is open to anywhere unless chosen otherwise, and says what that costs an idle cluster', async () => {
    const { bodiesOf, fetchMock } = renderDialog();
    await fillValid();
    expect(screen.getByRole('radio', { name: 'Anywhere' })).toBeChecked();
    expect(screen.getByText(NETWORK_ACCESS_MESSAGES.anywhereWarning)).toBeInTheDocument();
    expect(await deploy()).toContain('Anywhere');
    await waitFor(() => expect(sentAccess(bodiesOf('POST /api/cluster/create'))).toEqual([{ allow_anywhere: true, allowed: [] }]));
    // Nobody asked for the address: it is fetched only for a choice that uses it.
    expect(fetchMock.mock.calls.some(([input]) => pathOf(input) === '/api/user/client-address')).toBe(false);
  });

  it('fills "This address only" with the address the portal sees, and deploys with it alone', async () => {
    const { bodiesOf } = renderDialog();
    await fillValid();
    await userEvent.click(screen.getByRole('radio', { name: 'This address only' }));
    expect(await screen.findByText('203.0.113.7')).toBeInTheDocument();
    expect(screen.queryByText(NETWORK_ACCESS_MESSAGES.anywhereWarning)).not.toBeInTheDocument();
    expect(await deploy()).toContain('203.0.113.7/32');
    await waitFor(() =>
      expect(sentAccess(bodiesOf('POST /api/cluster/create'))).toEqual([
        { allow_anywhere: false, allowed: [{ cidr: '203.0.113.7', description: 'This address' }] },
      ]),
    );
  });

  it("checks a list with the contract before review, offers the caller's address, and deploys with the list", async () => {
    const { bodiesOf } = renderDialog();
    await fillValid();
    await userEvent.click(screen.getByRole('radio', { name: 'A list of addresses and ranges' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Address or range 1' }), '203.0.113.300');
    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    expect(await screen.findByText(NETWORK_ACCESS_MESSAGES.cidrInvalid)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Review Cluster' })).not.toBeInTheDocument();

    const first = screen.getByRole('textbox', { name: 'Address or range 1' });
    await userEvent.clear(first);
    await userEvent.type(first, '198.51.100.0/24');
    await userEvent.type(screen.getByRole('textbox', { name: 'Description 1' }), 'Office');
    await userEvent.click(await screen.findByRole('button', { name: 'Add my address (203.0.113.7)' }));
    expect(screen.queryByRole('button', { name: /Add my address/ })).not.toBeInTheDocument();
    expect(await deploy()).toContain('198.51.100.0/24, 203.0.113.7/32');
    await waitFor(() =>
      expect(sentAccess(bodiesOf('POST /api/cluster/create'))).toEqual([
        {
          allow_anywhere: false,
          allowed: [
            { cidr: '198.51.100.0/24', description: 'Office' },
            { cidr: '203.0.113.7', description: 'My address' },
          ],
        },
      ]),
    );
  });

  it("puts the server's error about a row back under that row", async () => {
    renderDialog({
      'POST /api/cluster/create': () =>
        jsonResponse(400, {
          errorDetails: { error_code: 'VALIDATION_FAILED', error_message: NETWORK_ACCESS_MESSAGES.cidrDuplicate },
          field_errors: { 'network_access.allowed.0.cidr': NETWORK_ACCESS_MESSAGES.cidrDuplicate },
        }),
    });
    await fillValid();
    await userEvent.click(screen.getByRole('radio', { name: 'A list of addresses and ranges' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Address or range 1' }), '198.51.100.7');
    await deploy();
    const row = await screen.findByRole('textbox', { name: 'Address or range 1' });
    await waitFor(() => expect(row).toHaveAccessibleDescription(NETWORK_ACCESS_MESSAGES.cidrDuplicate));
  });
});
