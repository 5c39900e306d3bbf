import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Notifications, notifications } from '@mantine/notifications';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { ADMIN, OWNER, SUBSCRIPTIONS } from '../../../test/account-users';
import { errorResponse, jsonResponse, mockApi, pathOf } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { UsersPage } from './users-page';

type Handlers = Parameters<typeof mockApi>[0];

const notRegistered = () => errorResponse(404, 'USER_NOT_FOUND', MESSAGES.userNotRegistered);

async function openAddDialog(handlers: Handlers = {}) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail());
  const api = mockApi({
    'GET /api/account/users': () => jsonResponse(200, [OWNER, ADMIN]),
    'GET /api/account/users-subscriptions': () => jsonResponse(200, SUBSCRIPTIONS),
    'GET /api/user/check-user': notRegistered,
    'POST /api/user/invite': () => jsonResponse(200, { invitation_id: 'a3b1c2d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' }),
    ...handlers,
  });
  renderRoutes(
    [
      {
        element: (
          <>
            <Notifications />
            <Outlet />
          </>
        ),
        children: [{ path: '/users/:userId', element: <UsersPage /> }],
      },
    ],
    `/users/${OWNER.user_id}`,
  );
  await screen.findByRole('navigation', { name: 'Users' });
  fireEvent.click(screen.getByRole('button', { name: 'Add' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add user' });
  const field = (label: string) => within(dialog).getByRole('textbox', { name: label });
  return {
    api,
    dialog,
    email: () => field('Email'),
    name: () => field('Full name'),
    invite: () => within(dialog).getByRole('button', { name: 'Invite' }),
    checkUserCalls: () => api.fetchMock.mock.calls.filter(([input]) => pathOf(input) === '/api/user/check-user'),
  };
}

function type(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

function leave(input: HTMLElement) {
  fireEvent.blur(input);
}

afterEach(() => {
  vi.unstubAllGlobals();
  // The toast store outlives a test; a full queue would hold back the next test's toasts.
  notifications.clean();
});

describe('add user dialog', () => {
  it('starts empty with Account Admin chosen, no subscriptions and the button disabled', async () => {
    const { dialog, email, name, invite } = await openAddDialog();
    expect(email()).toHaveValue('');
    expect(name()).toHaveValue('');
    expect(within(dialog).getByRole('radio', { name: 'Account Admin' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Cluster Member' })).not.toBeChecked();
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(invite()).toBeDisabled();
  });

  it('keeps the button disabled while a field is empty or wrong', async () => {
    const { dialog, email, name, invite } = await openAddDialog();
    type(email(), 'not-an-email');
    leave(email());
    expect(await within(dialog).findByText(MESSAGES.emailInvalid)).toBeInTheDocument();
    type(name(), 'Linus Torvalds');
    expect(invite()).toBeDisabled();

    type(email(), 'linus@example.com');
    await waitFor(() => expect(invite()).toBeEnabled());
    type(name(), 'L');
    leave(name());
    expect(await within(dialog).findByText(MESSAGES.nameInvalid)).toBeInTheDocument();
    expect(invite()).toBeDisabled();
  });

  it('looks the e-mail up on leaving the field, fills in the registered name and locks it', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { email, name, invite, checkUserCalls } = await openAddDialog({
      'GET /api/user/check-user': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    type(email(), 'Linus@Example.com');
    leave(email());

    await waitFor(() => expect(checkUserCalls()).toHaveLength(1));
    expect(checkUserCalls()[0]?.[0]).toBe('/api/user/check-user?email_id=linus%40example.com');
    expect(screen.getByLabelText('Looking up the name')).toBeInTheDocument();
    expect(invite()).toBeDisabled();

    answer(jsonResponse(200, { data: 'Linus Torvalds' }));
    await waitFor(() => expect(name()).toHaveValue('Linus Torvalds'));
    expect(name()).toHaveAttribute('readonly');
    await waitFor(() => expect(invite()).toBeEnabled());

    // Leaving the field again does not ask again for the same e-mail.
    leave(email());
    expect(checkUserCalls()).toHaveLength(1);
  });

  it('leaves the name editable for an e-mail that is not registered', async () => {
    const { email, name, invite } = await openAddDialog();
    type(email(), 'new.person@example.com');
    leave(email());
    await waitFor(() => expect(invite()).toBeDisabled());
    expect(name()).not.toHaveAttribute('readonly');
    type(name(), 'New Person');
    await waitFor(() => expect(invite()).toBeEnabled());
  });

  it('unlocks and clears a looked-up name when the e-mail changes', async () => {
    const { email, name } = await openAddDialog({ 'GET /api/user/check-user': () => jsonResponse(200, { data: 'Linus Torvalds' }) });
    type(email(), 'linus@example.com');
    leave(email());
    await waitFor(() => expect(name()).toHaveAttribute('readonly'));
    type(email(), 'someone.else@example.com');
    expect(name()).toHaveValue('');
    expect(name()).not.toHaveAttribute('readonly');
    // Back to an untouched field: no complaint before the person types in it.
    expect(screen.queryByText(MESSAGES.nameRequired)).not.toBeInTheDocument();
  });

  it('shows other lookup failures under the e-mail and keeps the button disabled', async () => {
    const { dialog, email, name, invite } = await openAddDialog({
      'GET /api/user/check-user': () => errorResponse(429, 'RATE_LIMITED', MESSAGES.rateLimited),
    });
    type(name(), 'Linus Torvalds');
    type(email(), 'linus@example.com');
    leave(email());
    expect(await within(dialog).findByText(MESSAGES.rateLimited)).toBeInTheDocument();
    expect(invite()).toBeDisabled();

    type(email(), 'linus.t@example.com');
    expect(within(dialog).queryByText(MESSAGES.rateLimited)).not.toBeInTheDocument();
  });

  it('does not look up an e-mail that is not valid', async () => {
    const { email, checkUserCalls } = await openAddDialog();
    type(email(), 'linus@');
    leave(email());
    await screen.findByText(MESSAGES.emailInvalid);
    expect(checkUserCalls()).toHaveLength(0);
  });

  it('says, once Cluster Member is chosen, that such a person reaches only the Unauthorized page and works in the cluster tools', async () => {
    const { dialog } = await openAddDialog();
    expect(within(dialog).queryByText(/401 Unauthorized/)).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Cluster Member' }));
    const note = await within(dialog).findByRole('alert');
    expect(note).toHaveTextContent(/cannot use this console: signing in here shows only the 401 Unauthorized page/);
    expect(note).toHaveTextContent(/Kumo Manager and the Web Portal/);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Account Admin' }));
    await waitFor(() => expect(within(dialog).queryByText(/401 Unauthorized/)).not.toBeInTheDocument());
  });

  it('needs at least one subscription for a Cluster Member', async () => {
    const { api, dialog, email, name, invite } = await openAddDialog();
    type(email(), 'member@example.com');
    leave(email());
    type(name(), 'Mary Member');
    await waitFor(() => expect(invite()).toBeEnabled());

    fireEvent.click(within(dialog).getByRole('radio', { name: 'Cluster Member' }));
    expect(await within(dialog).findByText(MESSAGES.selectSubscription)).toBeInTheDocument();
    expect(await within(dialog).findByRole('checkbox', { name: 'Analytics' })).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Sandbox' })).not.toBeChecked();
    expect(invite()).toBeDisabled();

    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Sandbox' }));
    await waitFor(() => expect(invite()).toBeEnabled());
    expect(within(dialog).queryByText(MESSAGES.selectSubscription)).not.toBeInTheDocument();

    fireEvent.click(invite());
    await waitFor(() => expect(api.bodiesOf('POST /api/user/invite')).toHaveLength(1));
    expect(api.bodiesOf('POST /api/user/invite')[0]).toEqual({
      invited_user_id: 'member@example.com',
      invited_user_name: 'Mary Member',
      role: 'CLUSTER_MEMBER',
      subscription_ids: [SUBSCRIPTIONS[1]?.subscription_id],
    });
  });

  it('drops the subscription rule when the role goes back to Account Admin', async () => {
    const { dialog, email, name, invite } = await openAddDialog();
    type(email(), 'member@example.com');
    leave(email());
    type(name(), 'Mary Member');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Cluster Member' }));
    expect(await within(dialog).findByText(MESSAGES.selectSubscription)).toBeInTheDocument();
    expect(invite()).toBeDisabled();

    fireEvent.click(within(dialog).getByRole('radio', { name: 'Account Admin' }));
    await waitFor(() => expect(invite()).toBeEnabled());
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('invites, says so, refreshes only the users list and closes', async () => {
    const { api, email, name, invite } = await openAddDialog();
    type(email(), ' New.Person@Example.com ');
    leave(email());
    type(name(), 'New Person');
    await waitFor(() => expect(invite()).toBeEnabled());
    fireEvent.click(invite());

    expect(await screen.findByText(MESSAGES.invitationSent)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add user' })).not.toBeInTheDocument());
    expect(api.bodiesOf('POST /api/user/invite')).toEqual([
      { invited_user_id: 'new.person@example.com', invited_user_name: 'New Person', role: 'ACCOUNT_ADMIN', subscription_ids: [] },
    ]);
    await waitFor(() => expect(api.bodiesOf('GET /api/account/users')).toHaveLength(2));
    expect(api.bodiesOf('GET /api/account/users-subscriptions')).toHaveLength(0);
  });

  it('shows an e-mail that already belongs to the account under the e-mail', async () => {
    const { dialog, email, name, invite } = await openAddDialog({
      'POST /api/user/invite': () => errorResponse(409, 'ALREADY_MEMBER', MESSAGES.alreadyMember),
    });
    type(email(), 'grace@example.com');
    leave(email());
    type(name(), 'Grace Hopper');
    await waitFor(() => expect(invite()).toBeEnabled());
    fireEvent.click(invite());
    expect(await within(dialog).findByText(MESSAGES.alreadyMember)).toBeInTheDocument();
    expect(invite()).toBeDisabled();
  });

  it("shows the server's field errors under their fields", async () => {
    const { dialog, email, name, invite } = await openAddDialog({
      'POST /api/user/invite': () =>
        jsonResponse(400, {
          errorDetails: { error_code: 'VALIDATION_FAILED', error_message: MESSAGES.nameInvalid },
          field_errors: { invited_user_name: MESSAGES.nameInvalid },
        }),
    });
    type(email(), 'x.y@example.com');
    leave(email());
    type(name(), 'Xavier Young');
    await waitFor(() => expect(invite()).toBeEnabled());
    fireEvent.click(invite());
    expect(await within(dialog).findByText(MESSAGES.nameInvalid)).toBeInTheDocument();
  });

  it('shows other failures as an error toast and keeps the dialog open', async () => {
    const { email, name, invite } = await openAddDialog({
      'POST /api/user/invite': () => errorResponse(500, 'INTERNAL_ERROR', MESSAGES.internal),
    });
    type(email(), 'x.y@example.com');
    leave(email());
    type(name(), 'Xavier Young');
    await waitFor(() => expect(invite()).toBeEnabled());
    fireEvent.click(invite());
    expect(await screen.findByText(MESSAGES.internal)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
  });
});
