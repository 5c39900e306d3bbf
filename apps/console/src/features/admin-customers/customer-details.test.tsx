import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Many typed keystrokes through several dialogs: more than the default 5 s on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
import { ADMIN_MESSAGES, clusterDeletionStartedMessage, permissionsFor, type PermissionState, type SystemRole } from '@kumo/contract';
import { CUSTOMER_ID, OPERATION_ID, adminSubscription, changeRatesButton, customerDetail, rateCard } from '../../../test/admin-customers';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { cluster } from '../../../test/clusters';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { CustomerDetails } from './customer-details';
import { openManagerReason } from './tabs/clusters-tab';

function signInStaff(permissions: Record<string, PermissionState>) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions }));
}

const empty = () => jsonResponse(200, { content: [], totalPages: 0 });

function renderDetails(role: SystemRole | Record<string, PermissionState>, handlers: Parameters<typeof mockApi>[0] = {}) {
  signInStaff(typeof role === 'string' ? permissionsFor(role) : role);
  let detail = customerDetail();
  const api = mockApi({
    [`GET /api/admin/users/${CUSTOMER_ID}`]: () => jsonResponse(200, detail),
    [`GET /api/admin/view-subscriptions/${CUSTOMER_ID}`]: () => jsonResponse(200, { content: [adminSubscription()], totalPages: 1 }),
    [`GET /api/admin/current-resource-rate/${CUSTOMER_ID}`]: () => jsonResponse(200, rateCard()),
    [`GET /api/admin/service-rate-history/${CUSTOMER_ID}`]: empty,
    [`GET /api/admin/view-users/${CUSTOMER_ID}`]: empty,
    'GET /api/admin/cluster/view': empty,
    ...handlers,
  });
  renderRoutes(
    [{ path: '/admin/customers/:userId', element: <CustomerDetails userId={CUSTOMER_ID} /> }],
    `/admin/customers/${CUSTOMER_ID}`,
  );
  return { api, setDetail: (next: typeof detail) => (detail = next) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('customer header and tabs', () => {
  it("shows the customer's header and every tab to a system administrator", async () => {
    renderDetails('SYSTEM_ADMIN');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Total subscriptions balance' })).toHaveTextContent('$1,234.50');
    expect(screen.getByRole('group', { name: 'Overdue limit' })).toHaveTextContent('$250.00');
    expect(screen.getByRole('group', { name: 'Registered on' })).toHaveTextContent('Jan 5, 2026');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Overview',
      'Service Rates',
      'Cost Analysis',
      'Transaction History',
      'Subscriptions',
      'Clusters',
      'Added Users',
    ]);
  });

  it('leaves out a hidden tab and shows a disabled one inactive', async () => {
    renderDetails({ ...permissionsFor('SYSTEM_ADMIN'), customer_cost_analysis: 'HIDDEN', customer_cluster: 'DISABLED' });
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    expect(screen.queryByRole('tab', { name: 'Cost Analysis' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Clusters' })).toBeDisabled();
  });

  it('shows the empty states of the added users and the clusters', async () => {
    renderDetails('SYSTEM_ADMIN');
    await userEvent.click(await screen.findByRole('tab', { name: 'Added Users' }));
    expect(await screen.findByText(ADMIN_MESSAGES.noAddedUsers)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Clusters' }));
    expect(await screen.findByText(ADMIN_MESSAGES.noClusters)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Service Rates' }));
    expect(await screen.findByText(ADMIN_MESSAGES.noRateChanges)).toBeInTheDocument();
  });

  it('a support role sees the money actions inactive', async () => {
    renderDetails('SYSTEM_SUPPORT');
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    expect(screen.getByRole('button', { name: 'Change Limit' })).toBeDisabled();
    await userEvent.click(screen.getByRole('tab', { name: 'Subscriptions' }));
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    expect(within(table).getByRole('button', { name: 'Add Funds' })).toBeDisabled();
  });
});

describe('add funds through the approver OTP', () => {
  it('asks with the defaults, takes the approver OTP, refreshes and says it is done', async () => {
    const { api, setDetail } = renderDetails('SYSTEM_ADMIN', {
      'POST /api/admin/action': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, message: ADMIN_MESSAGES.approverOtpSent, expires_at: '2026-11-23T18:00:00.000Z' }),
      'POST /api/admin/action/authenticate': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, action_name: 'add_funds', status: 'APPROVED', message: ADMIN_MESSAGES.fundsAdded }),
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Subscriptions' }));
    await userEvent.click(within(await screen.findByRole('table', { name: 'Subscriptions' })).getByRole('button', { name: 'Add Funds' }));

    const dialog = await screen.findByRole('dialog', { name: 'Add Funds' });
    expect(within(dialog).getByRole('textbox', { name: /Amount/ })).toHaveValue('1000');
    expect(within(dialog).getByText('One Thousand USD')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Category' })).toHaveValue('Refund Maintenance Cost');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Remarks' }), 'Outage of 3 May');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Proceed' }));

    expect(await within(dialog).findByText(ADMIN_MESSAGES.approverOtpSent)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/admin/action')).toEqual([
      {
        action_name: 'add_funds',
        user_id: CUSTOMER_ID,
        action_payload: {
          amount: '1000',
          event_name: 'ADMIN_ADD_FUNDS',
          iso_currency_code: 'USD',
          mode: 'FREE',
          remark: 'Outage of 3 May',
          subscription_id: adminSubscription().subscription_id,
          category: 'REFUND_MAINTENANCE_COST',
        },
      },
    ]);

    setDetail(customerDetail({ total_subscription_balance: 2234.5 }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: "Approver's OTP" }), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(ADMIN_MESSAGES.fundsAdded)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/admin/action/authenticate')).toEqual([{ operation_id: OPERATION_ID, otp: '123456' }]);
    await waitFor(() => expect(screen.getByRole('group', { name: 'Total subscriptions balance' })).toHaveTextContent('$2,234.50'));
  });

  it('says a wrong OTP under the field and clears it', async () => {
    renderDetails('SYSTEM_ADMIN', {
      'POST /api/admin/action': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, message: ADMIN_MESSAGES.approverOtpSent, expires_at: '2026-11-23T18:00:00.000Z' }),
      'POST /api/admin/action/authenticate': () => errorResponse(400, 'OTP_INVALID', 'Invalid OTP.'),
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Subscriptions' }));
    await userEvent.click(within(await screen.findByRole('table', { name: 'Subscriptions' })).getByRole('button', { name: 'Add Funds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Funds' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    const otp = await within(dialog).findByRole('textbox', { name: "Approver's OTP" });
    expect(within(dialog).getByRole('button', { name: 'Verify' })).toBeDisabled();
    await userEvent.type(otp, '999999');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await within(dialog).findByText('Invalid OTP.')).toBeInTheDocument();
    expect(otp).toHaveValue('');
  });

  it('refuses an amount over the maximum', async () => {
    renderDetails('SYSTEM_ADMIN');
    await userEvent.click(await screen.findByRole('tab', { name: 'Subscriptions' }));
    await userEvent.click(within(await screen.findByRole('table', { name: 'Subscriptions' })).getByRole('button', { name: 'Add Funds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Funds' });
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    await userEvent.clear(amount);
    await userEvent.type(amount, '1,000,000');
    expect(within(dialog).getByText('Maximum limit for adding fund is 999,999.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Proceed' })).toBeDisabled();
  });
});

describe('change overdue limit', () => {
  it('keeps Change disabled until the limit changes, says it in words and Zero when empty', async () => {
    renderDetails('SYSTEM_ADMIN');
    await userEvent.click(await screen.findByRole('button', { name: 'Change Limit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Overdue Limit' });
    const input = within(dialog).getByRole('textbox', { name: 'Overdue limit (USD)' });
    expect(within(dialog).getByRole('button', { name: 'Change' })).toBeDisabled();
    await userEvent.clear(input);
    expect(within(dialog).getByText('Zero')).toBeInTheDocument();
    await userEvent.type(input, '1500.255');
    // The third decimal is ignored as it is typed.
    expect(input).toHaveValue('1500.25');
    expect(within(dialog).getByText('One Thousand Five Hundred USD and Twenty Five Cents')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Change' })).toBeEnabled();
    await userEvent.clear(input);
    await userEvent.type(input, '1000000');
    expect(within(dialog).getByText(ADMIN_MESSAGES.overdueMaximum)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Change' })).toBeDisabled();
  });
});

describe('change service rates', () => {
  it('ignores invalid keystrokes, checks on blur and shows server errors per field', async () => {
    const { api } = renderDetails('SYSTEM_ADMIN', {
      'POST /api/admin/action': () =>
        jsonResponse(422, {
          errorDetails: { error_code: 'VALIDATION_FAILED', error_message: 'The request is not valid.' },
          field_errors: { 'service_rate_errors.BI_SERVER': 'Rate is too high for this customer.' },
        }),
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Service Rates' }));
    await userEvent.click(await changeRatesButton());
    const dialog = await screen.findByRole('dialog', { name: 'Change Service Rates' });
    const change = within(dialog).getByRole('button', { name: 'Change' });
    expect(change).toBeDisabled();

    const bi = within(dialog).getByRole('textbox', { name: 'BI Server' });
    await userEvent.clear(bi);
    await userEvent.tab();
    expect(within(dialog).getByText(ADMIN_MESSAGES.rateRequired)).toBeInTheDocument();
    // A digit beyond the shape is refused and said, and the field takes nothing more until corrected, so "123.5" never
    // quietly becomes "12.5".
    await userEvent.type(bi, '123.5');
    expect(bi).toHaveValue('12');
    expect(within(dialog).getByText(ADMIN_MESSAGES.rateFormat)).toBeInTheDocument();
    expect(change).toBeDisabled();
    await userEvent.type(bi, '{Backspace}.5');
    expect(bi).toHaveValue('1.5');
    expect(within(dialog).queryByText(ADMIN_MESSAGES.rateFormat)).not.toBeInTheDocument();
    await userEvent.clear(bi);
    await userEvent.type(bi, '0');
    await userEvent.tab();
    expect(within(dialog).getByText(ADMIN_MESSAGES.rateInvalid)).toBeInTheDocument();
    await userEvent.clear(bi);
    await userEvent.type(bi, '0.75');
    expect(change).toBeEnabled();
    await userEvent.click(change);

    expect(await within(dialog).findByText('Rate is too high for this customer.')).toBeInTheDocument();
    await waitFor(() => expect(bi).toHaveFocus());
    const [body] = api.bodiesOf('POST /api/admin/action') as { action_payload: { updated_service_rates: unknown[] } }[];
    expect(body?.action_payload.updated_service_rates).toContainEqual({ dimension: 'BI_SERVER', rate: '0.75' });
    expect(body?.action_payload.updated_service_rates).toContainEqual({ dimension: 'DATA_PROCESS', rate: '0.3', freeUnits: '10' });
  });
});

describe('money fields keep a sign or a letter and say it is wrong', () => {
  it('a negative or malformed overdue limit shows its message and keeps Change disabled', async () => {
    renderDetails('SYSTEM_ADMIN');
    await userEvent.click(await screen.findByRole('button', { name: 'Change Limit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Overdue Limit' });
    const input = within(dialog).getByRole('textbox', { name: 'Overdue limit (USD)' });
    const change = within(dialog).getByRole('button', { name: 'Change' });
    for (const typed of ['-100', '\u2212100', 'e5', '1e5']) {
      await userEvent.clear(input);
      await userEvent.type(input, typed);
      expect(input).toHaveValue(typed);
      expect(within(dialog).getByText(ADMIN_MESSAGES.overdueInvalid)).toBeInTheDocument();
      expect(change).toBeDisabled();
    }
  });

  it('a negative or malformed rate or free-units value shows its message at once and keeps Change disabled', async () => {
    renderDetails('SYSTEM_ADMIN');
    await userEvent.click(await screen.findByRole('tab', { name: 'Service Rates' }));
    await userEvent.click(await changeRatesButton());
    const dialog = await screen.findByRole('dialog', { name: 'Change Service Rates' });
    const change = within(dialog).getByRole('button', { name: 'Change' });
    const bi = within(dialog).getByRole('textbox', { name: 'BI Server' });
    for (const typed of ['-1', '\u22121', 'e5', '+2']) {
      await userEvent.clear(bi);
      await userEvent.type(bi, typed);
      expect(bi).toHaveValue(typed);
      expect(within(dialog).getByText(ADMIN_MESSAGES.rateInvalid)).toBeInTheDocument();
      expect(change).toBeDisabled();
    }
    await userEvent.clear(bi);
    await userEvent.type(bi, '0.85');
    expect(change).toBeEnabled();
    const freeUnits = within(dialog).getAllByRole('textbox', { name: /^Free .* units a month$/ })[0]!;
    await userEvent.clear(freeUnits);
    await userEvent.type(freeUnits, '-3');
    expect(freeUnits).toHaveValue('-3');
    expect(within(dialog).getByText(ADMIN_MESSAGES.freeUnitsInvalid)).toBeInTheDocument();
    expect(change).toBeDisabled();
  });
});

describe('cluster actions', () => {
  it('deletes a cluster through the approver OTP and says the deletion started', async () => {
    const online = cluster({ status: 'ONLINE', cluster_status: 'ONLINE' });
    const { api, setDetail } = renderDetails('SYSTEM_ADMIN', {
      'GET /api/admin/cluster/view': () => jsonResponse(200, { content: [online], totalPages: 1 }),
      'POST /api/admin/action': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, message: ADMIN_MESSAGES.approverOtpSent, expires_at: '2026-11-23T18:00:00.000Z' }),
      'POST /api/admin/action/authenticate': () =>
        jsonResponse(200, { operation_id: OPERATION_ID, action_name: 'delete_cluster', status: 'APPROVED', message: 'ok' }),
    });
    setDetail(customerDetail({ admin_access: true }));
    await userEvent.click(await screen.findByRole('tab', { name: 'Clusters' }));
    await userEvent.click(await screen.findByRole('button', { name: `Actions for ${online.cluster_name}` }));
    expect(await screen.findByRole('menuitem', { name: 'Open Manager' })).not.toHaveAttribute('aria-disabled');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete Cluster' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Cluster' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await userEvent.type(await within(dialog).findByRole('textbox', { name: "Approver's OTP" }), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(clusterDeletionStartedMessage(online.cluster_name, online.subscription_name))).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/admin/action')).toEqual([
      { action_name: 'delete_cluster', user_id: CUSTOMER_ID, action_payload: { deployment_id: online.deployment_id } },
    ]);
  });

  it('keeps Open Manager off while the customer does not allow provider access, its reason reachable by keyboard', async () => {
    const online = cluster({ status: 'ONLINE', cluster_status: 'ONLINE' });
    const open = vi.spyOn(window, 'open');
    renderDetails('SYSTEM_ADMIN', { 'GET /api/admin/cluster/view': () => jsonResponse(200, { content: [online], totalPages: 1 }) });
    await userEvent.click(await screen.findByRole('tab', { name: 'Clusters' }));
    await userEvent.click(await screen.findByRole('button', { name: `Actions for ${online.cluster_name}` }));
    const item = await screen.findByRole('menuitem', { name: 'Open Manager' });
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveAccessibleDescription(ADMIN_MESSAGES.managerProviderAccessOff);
    // The arrow keys reach it (a disabled menu item would be skipped), and focus shows the reason.
    for (let step = 0; step < 4 && document.activeElement !== item; step++) await userEvent.keyboard('{ArrowDown}');
    expect(item).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(ADMIN_MESSAGES.managerProviderAccessOff);
    await userEvent.keyboard('{Enter}');
    await userEvent.click(item);
    expect(open).not.toHaveBeenCalled();
  });

  it('says why Open Manager is off: provider access first, then a cluster that is not online', () => {
    expect(openManagerReason(false, 'ONLINE')).toBe(ADMIN_MESSAGES.managerProviderAccessOff);
    expect(openManagerReason(undefined, 'ONLINE')).toBe(ADMIN_MESSAGES.managerProviderAccessOff);
    expect(openManagerReason(true, 'OFFLINE')).toBe(ADMIN_MESSAGES.managerClusterNotOnline);
    expect(openManagerReason(true, 'ONLINE')).toBeNull();
  });

  it('shows a billing role the template download inactive and leaves Open Manager and Delete Cluster out', async () => {
    const online = cluster({ status: 'ONLINE', cluster_status: 'ONLINE' });
    renderDetails('SYSTEM_BILLING', { 'GET /api/admin/cluster/view': () => jsonResponse(200, { content: [online], totalPages: 1 }) });
    await userEvent.click(await screen.findByRole('tab', { name: 'Clusters' }));
    await userEvent.click(await screen.findByRole('button', { name: `Actions for ${online.cluster_name}` }));
    expect(await screen.findByRole('menuitem', { name: 'Download Deployment Template' })).toHaveAttribute('data-disabled', 'true');
    expect(screen.queryByRole('menuitem', { name: 'Open Manager' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete Cluster' })).not.toBeInTheDocument();
  });
});
