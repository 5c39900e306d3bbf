import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, permissionsFor } from '@kumo/contract';
import { CUSTOMER_ID, OPERATION_ID } from '../../../test/admin-customers';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { ApprovalsPage } from './approvals-page';

function renderApprovals(approvals: unknown[]) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions: permissionsFor('SYSTEM_ADMIN') }));
  mockApi({ 'GET /api/admin/approvals': () => jsonResponse(200, approvals) });
  renderRoutes([{ path: '/admin/approvals', element: <ApprovalsPage /> }], '/admin/approvals');
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('approvals', () => {
  it('shows what each waiting action will do, exactly as asked', async () => {
    renderApprovals([
      {
        operation_id: OPERATION_ID,
        action_name: 'add_funds',
        action_payload: { amount: 1000, remark: 'Outage of 3 May', category: 'REFUND_MAINTENANCE_COST' },
        customer_user_id: CUSTOMER_ID,
        customer_email: 'ada@example.com',
        requested_by_email: 'admin@kumo.cloud',
        requested_at: '2026-11-23T17:00:00.000Z',
        expires_at: '2026-11-23T17:10:00.000Z',
      },
    ]);
    const card = await screen.findByRole('listitem', { name: 'Add funds for ada@example.com' });
    expect(within(card).getByText(/Asked by admin@kumo.cloud/)).toBeInTheDocument();
    expect(within(card).getByText(/"remark": "Outage of 3 May"/)).toBeInTheDocument();
  });

  it('says when nothing waits', async () => {
    renderApprovals([]);
    expect(await screen.findByText(ADMIN_MESSAGES.noApprovals)).toBeInTheDocument();
  });
});
