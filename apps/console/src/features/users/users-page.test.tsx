import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type AccountAuditEntry, type AccountUser, type PendingInvitation } from '@kumo/contract';
import { ADMIN, MEMBER, OWNER } from '../../../test/account-users';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { RootLayout } from '../../app/root-layout';
import { CUSTOMER_SECTIONS } from '../../app/shell/sections';
import { ShellLayout } from '../../app/shell/shell-layout';
import { saveTokens, saveUser } from '../../lib/session';
import { UsersPage } from './users-page';

// The first test renders the whole shell from cold: on a busy machine its first screen takes several seconds.
configure({ asyncUtilTimeout: 10_000 });

/** A page of the account's audit trail as the server sends it. */
function auditPage(content: AccountAuditEntry[]) {
  return {
    page_content: { content, totalPages: content.length ? 1 : 0 },
    start_date: '2026-11-01T00:00:00.000Z',
    end_date: '2026-12-01T00:00:00.000Z',
  };
}

const HELP_LINKS = { BASE_URL: 'https://docs.example', links: { home: '/start', users: '/users-guide' } };

function renderUsers(
  path: string,
  users: AccountUser[] = [OWNER, ADMIN, MEMBER],
  extra: Parameters<typeof mockApi>[0] = {},
  me = userDetail(),
) {
  saveTokens('jwt', 'refresh');
  saveUser(me);
  let current = users;
  const api = mockApi({
    'GET /api/account/users': () => jsonResponse(200, current),
    'GET /api/saas-common/help-document-links': () => jsonResponse(200, HELP_LINKS),
    'GET /api/user/notifications': () => jsonResponse(200, { content: [], totalPages: 0, unread: 0 }),
    'GET /api/account/invitations': () => jsonResponse(200, []),
    'GET /api/account/audit-logs': () => jsonResponse(200, auditPage([])),
    'GET /api/user/api-tokens': () => jsonResponse(200, []),
    'GET /api/account/webhooks': () => jsonResponse(200, []),
    ...extra,
  });
  const view = renderRoutes(
    [
      {
        element: <RootLayout />,
        children: [
          {
            element: (
              <>
                <Notifications />
                <Outlet />
              </>
            ),
            children: [
              {
                element: <ShellLayout sectionSet={CUSTOMER_SECTIONS} />,
                children: [
                  { path: '/users', element: <UsersPage /> },
                  { path: '/users/:userId', element: <UsersPage /> },
                ],
              },
            ],
          },
        ],
      },
    ],
    path,
  );
  return { ...view, api, setUsers: (next: AccountUser[]) => (current = next) };
}

const usersNav = () => screen.findByRole('navigation', { name: 'Users' });
const details = () => screen.getByRole('heading', { level: 2 }).closest('.mantine-Card-root') as HTMLElement;

afterEach(() => {
  vi.unstubAllGlobals();
  // The toast store outlives a test; a full queue would hold back the next test's toasts.
  notifications.clean();
});

describe('users list and details', () => {
  it('selects the first user by default and puts them in the route', async () => {
    const { router } = renderUsers('/users');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 2 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/users/${OWNER.user_id}`);
  });

  it('lists each person with e-mail and role, and the route follows the selection', async () => {
    const { router } = renderUsers(`/users/${OWNER.user_id}`);
    const list = await usersNav();
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      expect.stringContaining('Ada Lovelace'),
      expect.stringContaining('Grace Hopper'),
      expect.stringContaining('Alan Turing'),
    ]);
    // The e-mail address and the role on lines of their own.
    expect(within(links[1]!).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(links[1]!).getByText('Account Admin')).toBeInTheDocument();

    fireEvent.click(within(list).getByRole('link', { name: /Alan Turing/ }));
    expect(await screen.findByRole('heading', { name: 'Alan Turing', level: 2 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/users/${MEMBER.user_id}`);
    expect(within(list).getByRole('link', { name: /Alan Turing/ })).toHaveAttribute('aria-current', 'page');
  });

  it('shows name, role, subscriptions and the overview with e-mail, user id and added-on date', async () => {
    renderUsers(`/users/${MEMBER.user_id}`);
    await screen.findByRole('heading', { name: 'Alan Turing', level: 2 });
    const card = details();
    expect(within(within(card).getByRole('group', { name: 'Role' })).getByText('Cluster Member')).toBeInTheDocument();
    const subscriptions = within(card).getByRole('group', { name: 'Subscriptions' });
    expect(within(subscriptions).getByText('Analytics')).toBeInTheDocument();
    expect(within(subscriptions).getByText('Sandbox')).toBeInTheDocument();
    expect(within(card).getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    expect(within(card).getByRole('group', { name: 'E-mail' })).toHaveTextContent('alan@example.com');
    expect(within(card).getByRole('group', { name: 'User ID' })).toHaveTextContent(MEMBER.user_id);
    // 'MMM D, YYYY h:mm A' in the browser's time zone.
    expect(within(card).getByRole('group', { name: 'Added on' }).textContent).toMatch(/^Added onApr 1, 2026 \d{1,2}:30 (AM|PM)$/);
  });

  it('says admins use every subscription', async () => {
    renderUsers(`/users/${ADMIN.user_id}`);
    await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 });
    expect(within(details()).getByRole('group', { name: 'Subscriptions' })).toHaveTextContent('All subscriptions');
  });

  it('titles the page and the breadcrumb with the selected user', async () => {
    renderUsers(`/users/${ADMIN.user_id}`);
    await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 });
    await waitFor(() => expect(document.title).toBe('Grace Hopper - Users | Kumo Cloud'));
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/users');
    expect(within(breadcrumb).getByText('Grace Hopper')).toHaveAttribute('aria-current', 'page');
  });

  it('says so when nobody has been added, with a hint to click Add', async () => {
    const { router } = renderUsers('/users', []);
    expect(await screen.findByText(MESSAGES.noUserAdded)).toBeInTheDocument();
    expect(screen.getByText('Click Add to invite a user to this account.')).toBeInTheDocument();
    expect(screen.getByText('User details are not available.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users');
    expect(document.title).toBe('Users | Kumo Cloud');
  });

  it('says details are not available for an unknown user', async () => {
    renderUsers('/users/nobody');
    await usersNav();
    expect(screen.getByText('User details are not available.')).toBeInTheDocument();
  });

  it('shows a failed list call in place of the list', async () => {
    renderUsers('/users', [], { 'GET /api/account/users': () => errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.') });
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do this.');
  });
});

describe('deleting a user', () => {
  const moreActions = (name: string) => screen.queryByRole('button', { name: `More actions for ${name}` });

  it('is not offered for an account owner or for oneself', async () => {
    renderUsers(`/users/${OWNER.user_id}`);
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 2 });
    expect(moreActions('Ada Lovelace')).not.toBeInTheDocument();
  });

  it('is not offered to an admin for themselves', async () => {
    const grace = userDetail({ userId: ADMIN.user_id, userName: ADMIN.user_name, emailId: ADMIN.email_id, role: 'ACCOUNT_ADMIN' });
    renderUsers(`/users/${ADMIN.user_id}`, undefined, {}, grace);
    await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 });
    expect(moreActions('Grace Hopper')).not.toBeInTheDocument();
    fireEvent.click(within(await usersNav()).getByRole('link', { name: /Alan Turing/ }));
    expect(await screen.findByRole('button', { name: 'More actions for Alan Turing' })).toBeInTheDocument();
    fireEvent.click(within(await usersNav()).getByRole('link', { name: /Ada Lovelace/ }));
    await screen.findByRole('heading', { name: 'Ada Lovelace', level: 2 });
    expect(moreActions('Ada Lovelace')).not.toBeInTheDocument();
  });

  it('asks for confirmation, removes the user, says so and refreshes the list', async () => {
    const { api, setUsers, router } = renderUsers(`/users/${MEMBER.user_id}`, [OWNER, ADMIN, MEMBER], {
      'PUT /api/account/delete-user': () => {
        setUsers([OWNER, ADMIN]);
        return jsonResponse(200, { message: MESSAGES.userRemoved });
      },
    });
    await screen.findByRole('heading', { name: 'Alan Turing', level: 2 });
    fireEvent.click(moreActions('Alan Turing')!);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Remove Alan Turing (alan@example.com) from this account?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(MESSAGES.userRemoved)).toBeInTheDocument();
    expect(api.bodiesOf('PUT /api/account/delete-user')).toEqual([{ email_id: 'alan@example.com' }]);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/users/${OWNER.user_id}`));
    expect(within(await usersNav()).queryByRole('link', { name: /Alan Turing/ })).not.toBeInTheDocument();
    expect(api.bodiesOf('GET /api/account/users')).toHaveLength(2);
  });

  it('keeps the user when the confirmation is cancelled', async () => {
    const { api } = renderUsers(`/users/${ADMIN.user_id}`);
    await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 });
    fireEvent.click(moreActions('Grace Hopper')!);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf('PUT /api/account/delete-user')).toHaveLength(0);
  });

  it('shows a refusal as an error toast', async () => {
    renderUsers(`/users/${ADMIN.user_id}`, [OWNER, ADMIN, MEMBER], {
      'PUT /api/account/delete-user': () => errorResponse(403, 'FORBIDDEN', MESSAGES.removeUserRefused),
    });
    await screen.findByRole('heading', { name: 'Grace Hopper', level: 2 });
    fireEvent.click(moreActions('Grace Hopper')!);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(MESSAGES.removeUserRefused)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Grace Hopper', level: 2 })).toBeInTheDocument();
  });
});

// The first render of the whole shell is slow on a loaded machine: wait for it longer than the default second.
describe('pending invitations', { timeout: 20_000 }, () => {
  const WAITING: PendingInvitation = {
    invitation_id: '4a5b6c7d-1111-4222-8333-444455556666',
    email_id: 'katherine@example.com',
    user_name: 'Katherine Johnson',
    role: 'ACCOUNT_ADMIN',
    invited_on: '2026-05-01T09:00:00.000Z',
    expires_on: '2026-05-08T09:00:00.000Z',
    expired: false,
  };
  const LAPSED: PendingInvitation = {
    ...WAITING,
    invitation_id: '4a5b6c7d-1111-4222-8333-444455556667',
    email_id: 'dorothy@example.com',
    user_name: 'Dorothy Vaughan',
    expired: true,
  };

  function renderWithInvitations(initial: PendingInvitation[], extra: Parameters<typeof mockApi>[0] = {}) {
    let pending = initial;
    const view = renderUsers(`/users/${OWNER.user_id}`, [OWNER], {
      'GET /api/account/invitations': () => jsonResponse(200, pending),
      ...extra,
    });
    return { ...view, setPending: (next: PendingInvitation[]) => (pending = next) };
  }

  const section = () => screen.findByRole('region', { name: 'Pending invitations' }, { timeout: 5_000 });

  it('shows no section while nothing is pending', async () => {
    const { api } = renderWithInvitations([]);
    await screen.findByRole('navigation', { name: 'Users' }, { timeout: 5_000 });
    // The list was asked for and answered empty.
    await waitFor(() => expect(api.bodiesOf('GET /api/account/invitations')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Pending invitations' })).not.toBeInTheDocument());
  });

  it('lists who was invited, with role, e-mail and when the link expires; expired ones say so', async () => {
    renderWithInvitations([WAITING, LAPSED]);
    const pending = await section();
    const waiting = within(pending).getByRole('listitem', { name: `Invitation to ${WAITING.email_id}` });
    expect(within(waiting).getByText('Katherine Johnson')).toBeInTheDocument();
    expect(within(waiting).getByText('Account Admin')).toBeInTheDocument();
    expect(within(waiting).getByText(/Link expires/)).toBeInTheDocument();
    const lapsed = within(pending).getByRole('listitem', { name: `Invitation to ${LAPSED.email_id}` });
    expect(within(lapsed).getByText('Expired')).toBeInTheDocument();
    expect(within(lapsed).getByText(/Link expired/)).toBeInTheDocument();
  });

  it('resends an invitation and says the old link no longer works', async () => {
    const { api } = renderWithInvitations([LAPSED], {
      [`POST /api/user/invite/${LAPSED.invitation_id}/resend`]: () => jsonResponse(200, { message: MESSAGES.invitationResent }),
    });
    fireEvent.click(within(await section()).getByRole('button', { name: `Resend the invitation to ${LAPSED.email_id}` }));
    expect(await screen.findByText(MESSAGES.invitationResent)).toBeInTheDocument();
    expect(api.bodiesOf(`POST /api/user/invite/${LAPSED.invitation_id}/resend`)).toHaveLength(1);
  });

  it('revokes only after confirmation, then drops it from the list', async () => {
    const { api, setPending } = renderWithInvitations([WAITING], {
      [`DELETE /api/user/invite/${WAITING.invitation_id}`]: () => {
        setPending([]);
        return jsonResponse(200, { message: MESSAGES.invitationRevoked });
      },
    });
    fireEvent.click(within(await section()).getByRole('button', { name: `Revoke the invitation to ${WAITING.email_id}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke invitation' });
    expect(dialog).toHaveTextContent(MESSAGES.revokeInvitationConfirm);
    expect(api.bodiesOf(`DELETE /api/user/invite/${WAITING.invitation_id}`)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(MESSAGES.invitationRevoked)).toBeInTheDocument();
    expect(api.bodiesOf(`DELETE /api/user/invite/${WAITING.invitation_id}`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Pending invitations' })).not.toBeInTheDocument());
  });

  it('cancelling the confirmation revokes nothing', async () => {
    const { api } = renderWithInvitations([WAITING]);
    fireEvent.click(within(await section()).getByRole('button', { name: `Revoke the invitation to ${WAITING.email_id}` }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Revoke invitation' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Revoke invitation' })).not.toBeInTheDocument());
    expect(api.fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    expect(await section()).toBeInTheDocument();
  });

  it('shows a failed resend as an error toast', async () => {
    renderWithInvitations([WAITING], {
      [`POST /api/user/invite/${WAITING.invitation_id}/resend`]: () => errorResponse(404, 'NOT_FOUND', MESSAGES.invitationNotFound),
    });
    fireEvent.click(within(await section()).getByRole('button', { name: `Resend the invitation to ${WAITING.email_id}` }));
    expect(await screen.findByText(MESSAGES.invitationNotFound)).toBeInTheDocument();
  });
});

describe('users page: staff access', () => {
  const STAFF = 'Sue Support (sue@kumo.cloud)';
  const ENTRIES: AccountAuditEntry[] = [
    {
      audit_id: '5a6b7c8d-1111-4222-8333-444455556666',
      date: '2026-11-20T10:05:00.000Z',
      event: 'USER_SWITCH_ENDED',
      description: `Kumo Cloud staff member ${STAFF} stopped viewing the console.`,
      caused_by: STAFF,
    },
    {
      audit_id: '5a6b7c8d-1111-4222-8333-444455556667',
      date: '2026-11-20T10:00:00.000Z',
      event: 'USER_SWITCH_STARTED',
      description: `Kumo Cloud staff member ${STAFF} started viewing the console, read-only.`,
      caused_by: STAFF,
    },
  ];
  const section = () => screen.findByRole('region', { name: 'Staff access' }, { timeout: 5_000 });

  it('lists when staff viewed the console and who, newest first', async () => {
    renderUsers(`/users/${OWNER.user_id}`, [OWNER], { 'GET /api/account/audit-logs': () => jsonResponse(200, auditPage(ENTRIES)) });
    const table = await within(await section()).findByRole('table', { name: 'Staff access' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining(ENTRIES[0]!.description),
      expect.stringContaining(ENTRIES[1]!.description),
    ]);
    expect(rows[0]).toHaveTextContent(`by ${STAFF}`);
  });

  it('says so when nobody looked in the month, and asks for the month picked', { timeout: 15_000 }, async () => {
    const { api } = renderUsers(`/users/${OWNER.user_id}`, [OWNER]);
    expect(await within(await section()).findByText(MESSAGES.noStaffViews)).toBeInTheDocument();
    const months = () =>
      api.fetchMock.mock.calls
        .map(([input]) => (input instanceof Request ? input.url : input.toString()))
        .filter((url) => url.includes('/api/account/audit-logs'))
        .map((url) => new URL(url, 'http://localhost').searchParams.get('startDate'));
    await waitFor(() => expect(months()).toHaveLength(1));
    const picker = within(await section()).getByRole('combobox', { name: 'Entries for' });
    // Last month: the second of the months offered.
    await userEvent.selectOptions(picker, within(picker).getAllByRole('option')[1]!);
    await waitFor(() => expect(months()).toHaveLength(2));
    expect(months()[1]).not.toBe(months()[0]);
    expect(months()[1]).toMatch(/^\d{4}-\d{2}-01T00:00:00$/);
  });

  it("shows the server's message when the trail cannot be read", async () => {
    renderUsers(`/users/${OWNER.user_id}`, [OWNER], {
      'GET /api/account/audit-logs': () => errorResponse(403, 'FORBIDDEN', MESSAGES.customerAreaOnly),
    });
    expect(await within(await section()).findByRole('alert')).toHaveTextContent(MESSAGES.customerAreaOnly);
  });
});
