import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, STORAGE_KEYS, permissionsFor, type PermissionState } from '@kumo/contract';
import { CUSTOMER_ID, customerDetail } from '../../../test/admin-customers';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { getSession, saveTokens, saveUser } from '../../lib/session';
import { CustomerDetails } from './customer-details';

const staff = (permissions: Record<string, PermissionState>) =>
  userDetail({ userName: 'Sue Support', role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null, permissions });

function renderDetails(permissions: Record<string, PermissionState>, handlers: Parameters<typeof mockApi>[0] = {}) {
  saveTokens('staff-jwt', 'staff-refresh');
  saveUser(staff(permissions));
  const api = mockApi({
    [`GET /api/admin/users/${CUSTOMER_ID}`]: () => jsonResponse(200, customerDetail()),
    ...handlers,
  });
  const { router } = renderRoutes(
    [
      {
        element: (
          <>
            <Notifications />
            <Outlet />
          </>
        ),
        children: [{ path: '/admin/customers/:userId', element: <CustomerDetails userId={CUSTOMER_ID} /> }, landed('/')],
      },
    ],
    `/admin/customers/${CUSTOMER_ID}`,
  );
  return { api, router };
}

const viewButton = () => screen.queryByRole('button', { name: 'View as customer' });

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  notifications.clean();
});

describe('View as customer on the customer details page', () => {
  it.each([
    ['SYSTEM_ADMIN', true],
    ['SYSTEM_SUPPORT', true],
    ['SYSTEM_DEVOPS', false],
    ['SYSTEM_BILLING', false],
  ] as const)('follows customer_switch_user for %s (enabled: %s)', async (role, enabled) => {
    renderDetails(permissionsFor(role));
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    if (enabled) expect(viewButton()).toBeEnabled();
    else expect(viewButton()).toBeDisabled();
  });

  it('is left out when the key is hidden', async () => {
    const { customer_switch_user: _hidden, ...rest } = permissionsFor('SYSTEM_ADMIN');
    renderDetails(rest);
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    expect(viewButton()).not.toBeInTheDocument();
  });

  it("keeps the staff session aside, takes the view's tokens and opens the customer's home", async () => {
    const { api, router } = renderDetails(permissionsFor('SYSTEM_SUPPORT'), {
      [`POST /api/admin/switch-user/${CUSTOMER_ID}`]: () =>
        jsonResponse(
          200,
          { message: ADMIN_MESSAGES.userSwitched, customer_name: 'Ada Lovelace', expires_at: '2026-03-10T09:30:00.000Z' },
          { jwt_token: 'view-jwt', refresh_token: 'view-refresh' },
        ),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View as customer' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.fetchMock).toHaveBeenCalledTimes(2);
    expect(getSession()).toEqual({ jwtToken: 'view-jwt', refreshToken: 'view-refresh', user: null });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.staffSession) ?? '{}')).toEqual({
      jwtToken: 'staff-jwt',
      refreshToken: 'staff-refresh',
      user: staff(permissionsFor('SYSTEM_SUPPORT')),
    });
  });

  it('shows the server message and stays when the view cannot start', async () => {
    const { router } = renderDetails(permissionsFor('SYSTEM_SUPPORT'), {
      [`POST /api/admin/switch-user/${CUSTOMER_ID}`]: () => errorResponse(404, 'NOT_FOUND', ADMIN_MESSAGES.customerNotFound),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View as customer' }));

    expect(await screen.findByText(ADMIN_MESSAGES.customerNotFound)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/admin/customers/${CUSTOMER_ID}`);
    expect(getSession().jwtToken).toBe('staff-jwt');
    expect(localStorage.getItem(STORAGE_KEYS.staffSession)).toBeNull();
  });
});
