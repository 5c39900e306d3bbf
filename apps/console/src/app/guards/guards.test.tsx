import { screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { AdminGuard } from './admin-guard';
import { CustomerGuard } from './customer-guard';

function renderGuarded(path: string) {
  return renderRoutes(
    [
      {
        element: <CustomerGuard />,
        children: [
          { path: '/', element: <p>Home page</p> },
          { path: '/clusters', element: <p>Clusters page</p> },
        ],
      },
      { element: <AdminGuard />, children: [{ path: '/admin/customers', element: <p>Customers page</p> }] },
      { path: '/login', Component: Outlet },
      landed('/admin/login'),
      landed('/unauthorized-access'),
      landed('/admin/unauthorized-access'),
    ],
    path,
  );
}

function signIn(role: Role) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role }));
  mockApi({ 'GET /api/user/detail': () => jsonResponse(200, userDetail({ role })) });
}

afterEach(() => vi.unstubAllGlobals());

describe('customer guard', () => {
  it('sends a visitor without a token to /login, remembering where they were going', async () => {
    const { router } = renderGuarded('/clusters?tab=audit');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/clusters', search: '?tab=audit' } });
  });

  it('lets account owners and admins in', async () => {
    signIn('ACCOUNT_ADMIN');
    renderGuarded('/clusters');
    expect(await screen.findByText('Clusters page')).toBeInTheDocument();
  });

  it('sends other roles to the unauthorized page', async () => {
    signIn('CLUSTER_MEMBER');
    renderGuarded('/clusters');
    expect(await screen.findByText('Landed on /unauthorized-access')).toBeInTheDocument();
  });

  it('sends staff to the unauthorized page too: a wrong role goes to the unauthorized route (decision 0027)', async () => {
    signIn('SYSTEM_SUPPORT');
    renderGuarded('/clusters');
    expect(await screen.findByText('Landed on /unauthorized-access')).toBeInTheDocument();
    expect(screen.queryByText('Customers page')).not.toBeInTheDocument();
  });

  it('sends staff who open the bare address to their customers page', async () => {
    signIn('SYSTEM_SUPPORT');
    renderGuarded('/');
    expect(await screen.findByText('Customers page')).toBeInTheDocument();
  });

  it('loads the user when only tokens are stored', async () => {
    saveTokens('jwt', 'refresh');
    mockApi({ 'GET /api/user/detail': () => jsonResponse(200, userDetail()) });
    renderGuarded('/clusters');
    expect(await screen.findByText('Clusters page')).toBeInTheDocument();
  });
});

describe('admin guard', () => {
  it('sends a visitor without a token to the admin login', async () => {
    renderGuarded('/admin/customers');
    expect(await screen.findByText('Landed on /admin/login')).toBeInTheDocument();
  });

  it('lets staff in', async () => {
    signIn('SYSTEM_BILLING');
    renderGuarded('/admin/customers');
    expect(await screen.findByText('Customers page')).toBeInTheDocument();
  });

  it('sends customers to the admin unauthorized page', async () => {
    signIn('ACCOUNT_OWNER');
    renderGuarded('/admin/customers');
    expect(await screen.findByText('Landed on /admin/unauthorized-access')).toBeInTheDocument();
  });
});
