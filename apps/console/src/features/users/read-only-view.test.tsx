import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingInvitation, Webhook } from '@kumo/contract';
import { ADMIN, MEMBER, OWNER } from '../../../test/account-users';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { enterCustomerView, saveTokens, saveUser } from '../../lib/session';
import { UsersPage } from './users-page';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});
vi.setConfig({ testTimeout: 20_000 });

const staff = userDetail({ userName: 'Sue Support', emailId: 'sue@kumo.test', role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null });
const viewed = userDetail({ userSwitched: { userName: 'Sue Support', emailId: 'sue@kumo.test', expiresAt: '2026-03-10T09:30:00.000Z' } });
const WAITING: PendingInvitation = {
  invitation_id: '4a5b6c7d-1111-4222-8333-444455556666',
  email_id: 'katherine@example.com',
  user_name: 'Katherine Johnson',
  role: 'ACCOUNT_ADMIN',
  invited_on: '2026-05-01T09:00:00.000Z',
  expires_on: '2026-05-08T09:00:00.000Z',
  expired: false,
};
const HOOK: Webhook = {
  webhook_id: '7a2d0c55-2f0e-4c61-9d3b-5e8f1a2b3c01',
  url: 'https://hooks.example.com/kumo',
  events: ['cluster.status_changed'],
  created_at: '2026-05-01T09:00:00.000Z',
  deliveries: [],
};

/** The owner's users page on a member, as the owner or as staff viewing the owner's console (userSwitched). */
function renderPage(asStaffView: boolean) {
  saveTokens('staff-jwt', 'staff-refresh');
  saveUser(asStaffView ? staff : userDetail());
  if (asStaffView) {
    enterCustomerView('view-jwt', 'view-refresh');
    saveUser(viewed);
  }
  mockApi({
    'GET /api/account/users': () => jsonResponse(200, [OWNER, ADMIN, MEMBER]),
    'GET /api/account/invitations': () => jsonResponse(200, [WAITING]),
    'GET /api/user/api-tokens': () => jsonResponse(200, []),
    'GET /api/account/webhooks': () => jsonResponse(200, [HOOK]),
    'GET /api/account/audit-logs': () =>
      jsonResponse(200, {
        page_content: { content: [], totalPages: 0 },
        start_date: '2026-11-01T00:00:00.000Z',
        end_date: '2026-12-01T00:00:00.000Z',
      }),
  });
  renderRoutes([{ path: '/users/:userId', element: <UsersPage /> }], `/users/${MEMBER.user_id}`);
}

describe("users in a staff member's read-only view of the customer's console", () => {
  it("offer the owner Add, Delete, Resend, Revoke and the webhooks' actions; the view none of them (the server refuses them: READ_ONLY_VIEW)", async () => {
    renderPage(false);
    await screen.findByRole('heading', { level: 2, name: MEMBER.user_name });
    expect(screen.getByRole('button', { name: 'Add' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `More actions for ${MEMBER.user_name}` })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: `Resend the invitation to ${WAITING.email_id}` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Revoke the invitation to ${WAITING.email_id}` })).toBeInTheDocument();
    await screen.findByRole('listitem', { name: `Webhook ${HOOK.url}` });
    expect(screen.getByRole('button', { name: 'Add endpoint' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Send test event to ${HOOK.url}` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Delete the webhook ${HOOK.url}` })).toBeInTheDocument();
    cleanup();
    localStorage.clear();

    renderPage(true);
    await screen.findByRole('heading', { level: 2, name: MEMBER.user_name });
    // The pending invitation is still listed, only without its actions.
    expect(await screen.findByText(WAITING.email_id)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `More actions for ${MEMBER.user_name}` })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Resend|Revoke/ })).not.toBeInTheDocument();
    // The webhooks and their deliveries are listed, only without Add, Send test event and Delete.
    await screen.findByRole('listitem', { name: `Webhook ${HOOK.url}` });
    expect(screen.queryByRole('button', { name: /Add endpoint|Send test event|Delete the webhook/ })).not.toBeInTheDocument();
  });
});
