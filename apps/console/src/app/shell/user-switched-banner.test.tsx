import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, STORAGE_KEYS } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { enterCustomerView, getSession, saveTokens, saveUser } from '../../lib/session';
import { CUSTOMER_SECTIONS } from './sections';
import { ShellLayout } from './shell-layout';

const staff = userDetail({ userName: 'Sue Support', emailId: 'sue@kumo.test', role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null });
const viewed = userDetail({ userSwitched: { userName: 'Sue Support', emailId: 'sue@kumo.test', expiresAt: '2026-03-10T09:30:00.000Z' } });
const BANNER = "You are viewing Ada Lovelace's console as Sue Support. Read-only.";

function renderShell(user = viewed, handlers: Parameters<typeof mockApi>[0] = {}) {
  saveTokens('staff-jwt', 'staff-refresh');
  saveUser(staff);
  enterCustomerView('view-jwt', 'view-refresh');
  saveUser(user);
  const api = mockApi({
    'GET /api/saas-common/help-document-links': () => jsonResponse(200, { BASE_URL: '', links: {} }),
    'GET /api/user/notifications': () => jsonResponse(200, { content: [], totalPages: 0, unread: 0 }),
    ...handlers,
  });
  const { router } = renderRoutes(
    [
      {
        element: <Outlet />,
        children: [
          { element: <ShellLayout sectionSet={CUSTOMER_SECTIONS} />, children: [{ path: '/', element: <p>Home page</p> }] },
          landed('/admin/customers'),
          landed('/login'),
        ],
      },
    ],
    '/',
  );
  return { api, router };
}

const authorizationOf = (init: RequestInit | undefined) => new Headers(init?.headers).get('Authorization');

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("a staff member's view of a customer's console", () => {
  it('says whose console, as whom, read-only, on every page', () => {
    renderShell();
    expect(screen.getByRole('banner')).toHaveTextContent(BANNER);
    expect(screen.getByRole('button', { name: 'End view' })).toBeEnabled();
  });

  it('is not there for the customer themselves', () => {
    renderShell(userDetail());
    expect(screen.queryByText(/You are viewing/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'End view' })).not.toBeInTheDocument();
  });

  it("ends the view on the server and goes back to the staff member's session and the customers page", async () => {
    let endedWith: string | null = null;
    const { router } = renderShell(viewed, {
      'POST /api/user/switch-user/end': (_body, init) => {
        endedWith = authorizationOf(init);
        return jsonResponse(200, { message: ADMIN_MESSAGES.userSwitchEnded });
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'End view' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers'));
    expect(endedWith).toBe('Bearer view-jwt');
    expect(getSession()).toEqual({ jwtToken: 'staff-jwt', refreshToken: 'staff-refresh', user: staff });
    expect(localStorage.getItem(STORAGE_KEYS.staffSession)).toBeNull();
  });

  it('goes back to the staff session even when the view has already ended on the server', async () => {
    const { router } = renderShell(viewed, {
      'POST /api/user/switch-user/end': () => errorResponse(401, 'TOKEN_INVALID', 'Not signed in.'),
    });
    await userEvent.click(screen.getByRole('button', { name: 'End view' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers'));
    expect(getSession().jwtToken).toBe('staff-jwt');
  });

  it('ends on logout too, back on the customers page with the staff session', async () => {
    const { api, router } = renderShell(viewed, {
      'POST /api/user/logout': () => jsonResponse(200, { message: 'Logged out.' }),
    });
    fireEvent.click(screen.getByRole('button', { name: /Profile menu/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers'));
    expect(api.bodiesOf('POST /api/user/logout')).toHaveLength(1);
    expect(getSession()).toEqual({ jwtToken: 'staff-jwt', refreshToken: 'staff-refresh', user: staff });
  });
});
