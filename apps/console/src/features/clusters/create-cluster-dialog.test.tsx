import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_MESSAGES, CLUSTER_SIZES, MESSAGES, type Subscription } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { autoStopSaved } from '../../../test/clusters';
import { subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { CreateClusterDialog } from './create-cluster-dialog';

afterEach(() => vi.unstubAllGlobals());
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 30_000 });

const DEPLOYMENT_ID = '00000000-0000-4000-8000-0000000000aa';
const RICH = subscription({ subscription_name: 'Analytics', total_amount: 500 });
const POOR = subscription({ subscription_id: '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60', subscription_name: 'Staging', total_amount: 99.99 });
const PASSWORD = 'Str0ng!Passw0rd';
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

function renderDialog(subscriptions: Subscription[], extra: Parameters<typeof mockApi>[0] = {}) {
  const onCreated = vi.fn();
  const api = mockApi({
    'GET /api/subscription/list': () => jsonResponse(200, subscriptions),
    'GET /api/cluster/region-mapping': () =>
      jsonResponse(200, {
        region_mapping: [
          { region: 'us-east-1', backup_regions: ['us-west-2'] },
          { region: 'eu-west-1', backup_regions: ['eu-central-1'] },
        ],
      }),
    'GET /api/cluster/check-kumo-ea-version': () => jsonResponse(200, { kumo_ea_version_enabled: false }),
    'GET /api/cluster/kumo-versions': () =>
      jsonResponse(200, { kumo_versions: [{ version: '2026.10.1', description: 'GA: current release', default: true }] }),
    'GET /api/cluster/cidr': () => jsonResponse(200, { cidr: '10.7.0.0/16' }),
    'GET /api/cluster/sizes': () => jsonResponse(200, CLUSTER_SIZES),
    'GET /api/cluster/price-preview': () => jsonResponse(200, { hourly_cost: 4.21, monthly_cost_estimate: 3073.3, runway_days: 4.9 }),
    // The create form saves its auto-stop choice on the new cluster as soon as it exists.
    [`PUT /api/cluster/auto-stop/${DEPLOYMENT_ID}`]: (body) => jsonResponse(200, autoStopSaved(DEPLOYMENT_ID, body)),
    ...extra,
  });
  renderRoutes(
    [{ path: '/', element: <CreateClusterDialog opened subscriptionId={undefined} onClose={() => {}} onCreated={onCreated} /> }],
    '/',
  );
  return { ...api, onCreated, dialog: () => screen.getByRole('dialog') };
}

/** A Mantine select's visible input (its listbox carries the same label). */
const selectInput = (label: RegExp) =>
  screen
    .getAllByLabelText(label)
    .find((element): element is HTMLInputElement => element instanceof HTMLInputElement && element.type !== 'hidden')!;

async function choose(label: RegExp, option: string) {
  await userEvent.click(selectInput(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

async function fillValid() {
  await userEvent.type(screen.getByRole('textbox', { name: /^Cluster Name/ }), 'Analytics-One');
  await choose(/^Region/, 'us-east-1');
  await waitFor(() => expect(screen.getByRole('textbox', { name: /^CIDR/ })).toHaveValue('10.7.0.0/16'));
  await userEvent.type(screen.getByLabelText(/^Password/), PASSWORD);
  await userEvent.type(screen.getByLabelText(/^Confirm Password/), PASSWORD);
  await waitFor(() => expect(selectInput(/^Kumo Version/)).toHaveValue('2026.10.1 — GA: current release'));
}

// Each test types a whole valid form: on a busy machine that alone can take half a minute.
/** The API's answer to a create that starts deploying. */
const CREATED = {
  'POST /api/cluster/create': () =>
    jsonResponse(200, { deployment_id: DEPLOYMENT_ID, subscription_id: RICH.subscription_id, message: CLUSTER_MESSAGES.deploymentStarted }),
};

describe('create cluster dialog', { timeout: 60_000 }, () => {
  it('shows the balance, and below $100 the insufficient-balance text with Review disabled', async () => {
    renderDialog([RICH, POOR]);
    expect(await screen.findByText('Balance: $500.00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review and Deploy' })).toBeEnabled();
    await choose(/^Subscription/, 'Staging');
    expect(await screen.findByText(CLUSTER_MESSAGES.insufficientBalance)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Review and Deploy' })).toBeDisabled();
  });

  it("says the spec's sentence with the server's reason under it when the subscriptions cannot be listed", async () => {
    renderDialog([], { 'GET /api/subscription/list': () => errorResponse(503, 'SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable) });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.subscriptionsFetchFailed)).toBeInTheDocument();
    expect(within(alert).getByText(MESSAGES.serviceUnavailable)).toBeInTheDocument();
  });

  it('prefills the CIDR for the chosen region and lets only digits, dots and a slash be typed', async () => {
    const { fetchMock } = renderDialog([RICH]);
    await choose(/^Region/, 'us-east-1');
    const cidr = screen.getByRole('textbox', { name: /^CIDR/ });
    await waitFor(() => expect(cidr).toHaveValue('10.7.0.0/16'));
    const cidrCall = fetchMock.mock.calls.map(([input]) => urlOf(input)).find((url) => url.startsWith('/api/cluster/cidr'));
    expect(cidrCall).toContain('deploymentRegion=us-east-1');
    expect(cidrCall).toContain('enableDrFlag=false');
    await userEvent.clear(cidr);
    await userEvent.type(cidr, 'a10.b1.0.0/2x4');
    expect(cidr).toHaveValue('10.1.0.0/24');
  });

  it('enables the backup region only with disaster recovery, offering the region’s backup regions, and requires it then', async () => {
    renderDialog([RICH]);
    await choose(/^Region/, 'us-east-1');
    const backup = selectInput(/^Backup Region/);
    expect(backup).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: /Enable Disaster Recovery/ }));
    expect(backup).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    expect(await screen.findByText(CLUSTER_MESSAGES.backupRegionRequired)).toBeInTheDocument();
    await choose(/^Backup Region/, 'us-west-2');
    expect(backup).toHaveValue('us-west-2');
  });

  it('ticks the password checks live, blocks spaces, counts the description and explains what is wrong on Review', async () => {
    renderDialog([RICH]);
    const password = await screen.findByLabelText(/^Password/);
    await userEvent.type(password, 'abc def');
    expect(password).toHaveValue('abcdef');
    const checks = await screen.findByRole('list', { name: 'Password requirements' });
    expect(
      within(checks)
        .getByText(/At least 12 characters/)
        .closest('[data-met]'),
    ).toHaveAttribute('data-met', 'false');
    await userEvent.type(password, 'GHIJ1!xyz');
    expect(
      within(checks)
        .getByText(/At least 12 characters/)
        .closest('[data-met]'),
    ).toHaveAttribute('data-met', 'true');
    expect(
      within(checks)
        .getByText(/An uppercase letter/)
        .closest('[data-met]'),
    ).toHaveAttribute('data-met', 'true');

    await userEvent.type(screen.getByRole('textbox', { name: 'Description' }), 'Finance');
    expect(screen.getByText('7/200')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: /^Cluster Name/ }), '1ab');
    await userEvent.type(screen.getByLabelText(/^Confirm Password/), 'different');
    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    expect(await screen.findByText(CLUSTER_MESSAGES.nameFormat)).toBeInTheDocument();
    expect(screen.getByText(CLUSTER_MESSAGES.regionRequired)).toBeInTheDocument();
  });

  it('reviews, deploys with the request the API expects and hands over the new cluster', async () => {
    const { bodiesOf, onCreated } = renderDialog([RICH], CREATED);
    await fillValid();
    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    const review = await screen.findByRole('dialog', { name: 'Review Cluster' });
    expect(within(review).getByRole('group', { name: 'Cluster Name' })).toHaveTextContent('Analytics-One');
    expect(within(review).getByRole('group', { name: 'Disaster Recovery' })).toHaveTextContent('Off');
    expect(review).not.toHaveTextContent(PASSWORD);
    await userEvent.click(within(review).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ deployment_id: DEPLOYMENT_ID })));
    expect(bodiesOf('POST /api/cluster/create')).toEqual([
      {
        subscription_id: RICH.subscription_id,
        cluster_name: 'Analytics-One',
        description: '',
        cloud_provider: 'AWS',
        enable_dr_flag: false,
        cidr: '10.7.0.0/16',
        region: 'us-east-1',
        backup_region: null,
        password: PASSWORD,
        kumo_version: '2026.10.1',
        network_access: { allow_anywhere: true, allowed: [] },
        size: 'M',
        query_engines: 5,
      },
    ]);
  });

  it('prices the size and number of query engines chosen, with the runway, before anything is created', async () => {
    const { bodiesOf, fetchMock } = renderDialog([RICH], CREATED);
    await fillValid();
    await userEvent.click(screen.getByRole('radio', { name: 'S' }));
    expect(await screen.findByText('r6i.2xlarge: 8 cores, 64 GiB each')).toBeInTheDocument();
    screen.getByRole('slider').focus();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('img', { name: 'Capacity 2 of 5' })).toBeInTheDocument();
    const priced = 'S × 2: $4.21 per hour (about $3,073.30 a month); the balance lasts about 4.9 days with it.';
    expect(await screen.findByText(priced)).toBeInTheDocument();
    const asked = fetchMock.mock.calls
      .map(([input]) => (input instanceof Request ? input.url : input.toString()))
      .filter((url) => url.includes('/api/cluster/price-preview'));
    expect(asked.at(-1)).toContain(`subscription_id=${RICH.subscription_id}&size=S&query_engines=2`);
    expect(bodiesOf('POST /api/cluster/create')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    const review = await screen.findByRole('dialog', { name: 'Review Cluster' });
    expect(within(review).getByRole('group', { name: 'Size' })).toHaveTextContent('S × 2');
    // The review's line beside the form's, which stays mounted (hidden) under it.
    expect(within(review).getAllByText(priced)).toHaveLength(2);
    await userEvent.click(within(review).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(bodiesOf('POST /api/cluster/create')).toHaveLength(1));
    expect(bodiesOf('POST /api/cluster/create')[0]).toMatchObject({ size: 'S', query_engines: 2 });
  });

  // The server gives a new cluster the operator's default first (off in the browser tests), so 60 is saved too.
  it.each([
    { choice: '60 idle minutes, as the form offers', set: async () => {}, saved: 60 },
    { choice: 'off', set: () => userEvent.click(screen.getByRole('switch', { name: 'Stop when idle' })), saved: null },
    {
      choice: '25 idle minutes',
      set: async () => {
        const minutes = within(screen.getByRole('group', { name: 'Auto-stop' })).getByRole('textbox', { name: /Idle minutes/ });
        await userEvent.clear(minutes);
        await userEvent.type(minutes, '25');
      },
      saved: 25,
    },
  ])('saves the auto-stop choice on the new cluster: $choice', async ({ set, saved }) => {
    const { bodiesOf } = renderDialog([RICH], CREATED);
    await fillValid();
    await set();
    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Review Cluster' })).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(bodiesOf(`PUT /api/cluster/auto-stop/${DEPLOYMENT_ID}`)).toEqual([{ idle_minutes: saved }]));
  });

  it('puts the server’s field errors back on the form, focusing the first', async () => {
    renderDialog([RICH], {
      'POST /api/cluster/create': () =>
        jsonResponse(409, {
          errorDetails: { error_code: 'CIDR_OVERLAP', error_message: CLUSTER_MESSAGES.cidrOverlap },
          field_errors: { cidr: CLUSTER_MESSAGES.cidrOverlap, cluster_name: CLUSTER_MESSAGES.nameTaken },
        }),
    });
    await fillValid();
    await userEvent.click(screen.getByRole('button', { name: 'Review and Deploy' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(CLUSTER_MESSAGES.cidrOverlap)).toBeInTheDocument();
    expect(screen.getByText(CLUSTER_MESSAGES.nameTaken)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New Cluster' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Cluster Name/ })).toHaveFocus());
  });
});
