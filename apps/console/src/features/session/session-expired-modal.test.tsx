import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '../../lib/use-query';
import { Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { api } from '../../lib/api-client';
import { getSession, saveTokens, saveUser } from '../../lib/session';
import { abandonSession, isSessionExpired } from '../../lib/session-expiry';
import { RENEWAL_SIGN_IN_PATH, SessionExpiredModal } from './session-expired-modal';

function CustomersProbe() {
  const query = useQuery({ queryKey: ['probe'], queryFn: () => api.get('/api/admin/users') });
  return <p>{query.data ? `Loaded ${query.data.totalPages} customers` : 'Loading customers'}</p>;
}

function renderStaffPage() {
  saveTokens('expired-jwt', 'expired-refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null }));
  const calls = mockApi({
    'POST /api/user/refresh-token': () => errorResponse(401, 'REFRESH_TOKEN_EXPIRED', 'Refresh Token has expired.'),
    'GET /api/admin/users': (_body, init) =>
      new Headers(init?.headers).get('Authorization') === 'Bearer new-jwt'
        ? jsonResponse(200, { content: [], totalPages: 3 })
        : errorResponse(401, 'TOKEN_EXPIRED', 'JWT Token has expired.'),
  });
  const view = renderRoutes(
    [
      {
        element: (
          <>
            <Outlet />
            <SessionExpiredModal />
          </>
        ),
        children: [{ path: '/admin/customers', element: <CustomersProbe /> }, landed('/admin/login')],
      },
    ],
    '/admin/customers',
  );
  return { ...view, calls };
}

function postFromPopup(data: unknown, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

const popup = { focus: vi.fn(), closed: false } as unknown as Window;

beforeEach(() => {
  vi.spyOn(window, 'open').mockReturnValue(popup);
});

afterEach(() => {
  // Calls still waiting for a renewal belong to this test only.
  if (isSessionExpired()) abandonSession();
  vi.unstubAllGlobals();
});

describe('session-expired modal', () => {
  it('asks a staff member to sign in again, opens the renewal sign-in in a pop-up and carries on with the new tokens', async () => {
    renderStaffPage();

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.sessionExpired);
    expect(screen.getByText('Loading customers')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(window.open).toHaveBeenCalledWith('/oauth2/authorization/azure?isSessionExpired=true', expect.any(String), expect.any(String));
    expect(RENEWAL_SIGN_IN_PATH).toBe('/oauth2/authorization/azure?isSessionExpired=true');

    postFromPopup({ jwt_token: 'new-jwt', refresh_token: 'new-refresh', userSwitched: false });

    expect(await screen.findByText('Loaded 3 customers')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(getSession()).toMatchObject({ jwtToken: 'new-jwt', refreshToken: 'new-refresh' });
    expect(isSessionExpired()).toBe(false);
  });

  it('ignores messages from other origins and messages without tokens', async () => {
    renderStaffPage();
    await screen.findByRole('dialog');

    postFromPopup({ jwt_token: 'evil-jwt', refresh_token: 'evil-refresh' }, 'https://evil.example');
    postFromPopup({ hello: 'world' });

    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(getSession().jwtToken).toBe('expired-jwt');
    expect(isSessionExpired()).toBe(true);
  });

  it('says so when the browser blocks the pop-up', async () => {
    vi.mocked(window.open).mockReturnValue(null);
    renderStaffPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Popup blocked! Please allow popups for this website.');
  });

  it('goes to the customers list when the pop-up says another user signed in', async () => {
    const { router } = renderStaffPage();
    await screen.findByRole('dialog');
    await act(() => router.navigate('/admin/login'));
    postFromPopup({ jwt_token: 'new-jwt', refresh_token: 'new-refresh', userSwitched: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers'));
  });

  it('logs out to the admin login when the staff member does not sign in again', async () => {
    const { router } = renderStaffPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(getSession().jwtToken).toBeNull();
    expect(isSessionExpired()).toBe(false);
  });

  it('is not shown to customers, whose failed refresh ends the session', async () => {
    saveTokens('expired-jwt', 'expired-refresh');
    saveUser(userDetail({ role: 'ACCOUNT_OWNER' }));
    mockApi({
      'POST /api/user/refresh-token': () => errorResponse(401, 'REFRESH_TOKEN_EXPIRED', 'Refresh Token has expired.'),
      'GET /api/admin/users': () => errorResponse(401, 'TOKEN_EXPIRED', 'JWT Token has expired.'),
    });
    renderRoutes(
      [
        {
          element: (
            <>
              <Outlet />
              <SessionExpiredModal />
            </>
          ),
          children: [{ path: '/admin/customers', element: <CustomersProbe /> }],
        },
      ],
      '/admin/customers',
    );
    await waitFor(() => expect(getSession().jwtToken).toBeNull());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
