import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, permissionsFor, type PendingApproval } from '@kumo/contract';
import { CUSTOMER_ID, OPERATION_ID } from '../../../test/admin-customers';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { ApprovalsPage } from './approvals-page';

vi.setConfig({ testTimeout: 20_000 });

const SUBSCRIPTION_UUID = '0b5c9c8e-8d1f-4d3e-9a43-5a0f0f1f2e3d';

const waiting = (overrides: Partial<PendingApproval> = {}): PendingApproval => ({
  operation_id: OPERATION_ID,
  action_name: 'add_funds',
  action_payload: { amount: 1000, remark: 'Outage of 3 May', category: 'REFUND_MAINTENANCE_COST', subscription_id: SUBSCRIPTION_UUID },
  customer_user_id: CUSTOMER_ID,
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  details: [
    { label: 'Subscription', value: 'Analytics' },
    { label: 'Amount', value: '$1,000.00 (One Thousand USD)' },
    { label: 'Category', value: 'Refund Maintenance Cost' },
    { label: 'Remark', value: 'Outage of 3 May' },
  ],
  requested_by_email: 'admin@kumo.cloud',
  requested_at: '2026-11-23T17:00:00.000Z',
  expires_at: '2026-11-23T17:10:00.000Z',
  ...overrides,
});

function renderApprovals(approvals: PendingApproval[], mine: PendingApproval[] = []) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions: permissionsFor('SYSTEM_ADMIN') }));
  let myRequests = mine;
  const api = mockApi({
    'GET /api/admin/approvals': () => jsonResponse(200, approvals),
    'GET /api/admin/action/mine': () => jsonResponse(200, myRequests),
    'POST /api/admin/action/cancel': () => {
      myRequests = [];
      return jsonResponse(200, { operation_id: OPERATION_ID, message: ADMIN_MESSAGES.requestCancelled });
    },
    'POST /api/admin/action/authenticate': () =>
      jsonResponse(200, { operation_id: OPERATION_ID, action_name: 'add_funds', status: 'APPROVED', message: ADMIN_MESSAGES.fundsAdded }),
  });
  renderRoutes([{ path: '/admin/approvals', element: <ApprovalsPage /> }], '/admin/approvals');
  return api;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('approvals', () => {
  it('says in words what each waiting action will do, never the raw payload', async () => {
    renderApprovals([waiting()]);
    const card = await screen.findByRole('listitem', { name: 'Add funds for Ada Lovelace' });
    expect(within(card).getByText(/ada@example.com · asked by admin@kumo.cloud/)).toBeInTheDocument();
    const what = within(card).getByRole('table', { name: 'What Add funds for Ada Lovelace will do' });
    expect(within(what).getByRole('row', { name: 'Amount $1,000.00 (One Thousand USD)' })).toBeInTheDocument();
    expect(within(what).getByRole('row', { name: 'Subscription Analytics' })).toBeInTheDocument();
    expect(within(what).getByRole('row', { name: 'Category Refund Maintenance Cost' })).toBeInTheDocument();
    expect(within(what).getByRole('row', { name: 'Remark Outage of 3 May' })).toBeInTheDocument();
    expect(within(card).getByText(/Expires/)).toBeInTheDocument();
    expect(card).not.toHaveTextContent(SUBSCRIPTION_UUID);
    expect(card).not.toHaveTextContent('"remark"');
  });

  it('says when nothing waits', async () => {
    renderApprovals([]);
    expect(await screen.findByText(ADMIN_MESSAGES.noApprovals)).toBeInTheDocument();
  });

  it('lists my own waiting requests: the OTP can be entered again, or the request withdrawn', async () => {
    const api = renderApprovals([], [waiting({ requested_by_email: 'me@kumo.cloud' })]);
    const section = await screen.findByRole('region', { name: 'Your requests waiting for an approver' });
    const card = within(section).getByRole('listitem', { name: 'Add funds for Ada Lovelace' });

    await userEvent.click(within(card).getByRole('button', { name: 'Enter OTP' }));
    const dialog = await screen.findByRole('dialog', { name: "Approver's OTP" });
    await userEvent.type(within(dialog).getByRole('textbox', { name: "Approver's OTP" }), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(api.bodiesOf('POST /api/admin/action/authenticate')).toEqual([{ operation_id: OPERATION_ID, otp: '123456' }]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(within(card).getByRole('button', { name: 'Withdraw request' }));
    await waitFor(() => expect(api.bodiesOf('POST /api/admin/action/cancel')).toEqual([{ operation_id: OPERATION_ID }]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Your requests waiting for an approver' })).not.toBeInTheDocument());
  });
});
