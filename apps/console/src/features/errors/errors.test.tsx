import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, STORAGE_KEYS, type Account } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { InvitePage } from './invite-page';
import { NotFoundPage } from './not-found-page';
import { OAuth2ErrorPage } from './oauth2-error-page';
import { UnauthorizedPage } from './unauthorized-page';
import { SignedInGuard } from './signed-in-guard';
import { routes } from '../../app/routes';

afterEach(() => vi.unstubAllGlobals());

describe('invite page', () => {
  const renderInvite = (search: string) =>
    renderRoutes([{ path: '/invite', element: <InvitePage /> }, landed('/login')], `/invite${search}`);

  it('clears local storage and goes straight to the login', async () => {
    saveTokens('jwt', 'refresh');
    localStorage.setItem('somethingElse', 'x');
    renderInvite('?token=abc');
    expect(await screen.findByText('Landed on /login')).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
  });

  it('explains an expired invitation when error=true, with a Login button', async () => {
    saveTokens('jwt', 'refresh');
    renderInvite('?error=true');
    expect(screen.getByText(MESSAGES.accessExpired)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Login' }));
    expect(await screen.findByText('Landed on /login')).toBeInTheDocument();
  });
});

describe('single sign-on error', () => {
  const renderError = (search: string) =>
    renderRoutes([{ path: '/oauth2/error', element: <OAuth2ErrorPage /> }, landed('/admin/login')], `/oauth2/error${search}`);

  it('hands the error to the admin login as a message', () => {
    const { router } = renderError('?error=Access%20denied');
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(router.state.location.state).toEqual({ message: 'Access denied' });
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('replaces history when there is no error value', () => {
    const { router } = renderError('');
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('unauthorized page', () => {
  function renderUnauthorized(role: 'CLUSTER_MEMBER' | 'SYSTEM_DEVOPS') {
    saveTokens('jwt', 'refresh');
    saveUser(userDetail({ role }));
    const api = mockApi({ 'POST /api/user/logout': () => jsonResponse(200, { message: 'Logged out.' }) });
    renderRoutes(
      [
        { path: '/unauthorized-access', element: <UnauthorizedPage /> },
        landed('/login'),
        landed('/admin/login'),
        landed('/admin/customers'),
      ],
      '/unauthorized-access',
    );
    return api;
  }

  it('says access is denied and logs a customer out to the login', async () => {
    const api = renderUnauthorized('CLUSTER_MEMBER');
    expect(screen.getByRole('heading', { name: '401 Unauthorized' })).toBeInTheDocument();
    expect(screen.getByText(/contact your administrator/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Landed on /login')).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/logout')).toEqual([{}]);
  });

  it('offers staff who opened a customer page the way to their customers page', async () => {
    renderUnauthorized('SYSTEM_DEVOPS');
    fireEvent.click(screen.getByRole('button', { name: 'Go to Customers' }));
    expect(await screen.findByText('Landed on /admin/customers')).toBeInTheDocument();
  });

  it('logs staff out to the admin login', async () => {
    renderUnauthorized('SYSTEM_DEVOPS');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Landed on /admin/login')).toBeInTheDocument();
  });
});

describe('unauthorized page is for signed-in people only', () => {
  it('sends an anonymous visitor of /unauthorized-access to /login (the app routes)', async () => {
    const { router } = renderRoutes(routes, '/unauthorized-access');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5_000 });
    expect(screen.queryByText(MESSAGES.unauthorizedTitle)).not.toBeInTheDocument();
  });

  it('sends an anonymous visitor of /admin/unauthorized-access to the admin login (the app routes)', async () => {
    const { router } = renderRoutes(routes, '/admin/unauthorized-access');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'), { timeout: 5_000 });
  });

  it('shows the page to a signed-in person', async () => {
    saveTokens('jwt', 'refresh');
    saveUser(userDetail({ role: 'CLUSTER_MEMBER' }));
    mockApi({ 'GET /api/user/detail': () => jsonResponse(200, userDetail({ role: 'CLUSTER_MEMBER' })) });
    renderRoutes(
      [
        { element: <SignedInGuard signInPath="/login" />, children: [{ path: '/unauthorized-access', element: <UnauthorizedPage /> }] },
        landed('/login'),
      ],
      '/unauthorized-access',
    );
    expect(await screen.findByRole('heading', { name: MESSAGES.unauthorizedTitle })).toBeInTheDocument();
  });
});

describe('unauthorized page for a Cluster Member', () => {
  const ownAccount = {
    account_id: '1a2b3c4d-0000-4000-8000-000000000001',
    role: 'ACCOUNT_OWNER' as const,
    logged_in: false,
    account_owner_email_id: 'me@example.com',
  };
  const memberAccount = {
    account_id: '1a2b3c4d-0000-4000-8000-000000000002',
    role: 'CLUSTER_MEMBER' as const,
    logged_in: true,
    account_owner_email_id: 'boss@example.com',
  };

  function renderMember(accounts: Account[] = [memberAccount]) {
    const member = userDetail({ role: 'CLUSTER_MEMBER', ownerEmailId: 'boss@example.com', accounts });
    saveTokens('jwt', 'refresh');
    saveUser(member);
    const api = mockApi({
      'POST /api/user/switch-account': () =>
        jsonResponse(200, { data: MESSAGES.accountSwitched }, { jwt_token: 'jwt2', refresh_token: 'refresh2' }),
      'GET /api/user/detail': () => jsonResponse(200, userDetail({ role: 'ACCOUNT_OWNER' })),
      'POST /api/user/logout': () => jsonResponse(200, { message: 'Logged out.' }),
    });
    renderRoutes([{ path: '/unauthorized-access', element: <UnauthorizedPage /> }, landed('/'), landed('/login')], '/unauthorized-access');
    return api;
  }

  it('says why (the console is for owners and admins) and whom to ask, keeping the 401 heading', () => {
    renderMember();
    expect(screen.getByRole('heading', { name: '401 Unauthorized' })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.clusterMemberConsole)).toBeInTheDocument();
    // Where their work is: the clusters' own tools.
    expect(screen.getByText(/open your cluster's Kumo Manager or Web Portal/)).toBeInTheDocument();
    expect(screen.getByText('boss@example.com')).toBeInTheDocument();
    expect(screen.getByText(/ask its owner/)).toBeInTheDocument();
    expect(screen.queryByText(/Continue in another of your accounts/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('offers to switch to another account of theirs where they may use the console', async () => {
    const api = renderMember([memberAccount, ownAccount]);
    fireEvent.click(screen.getByRole('button', { name: /me@example\.com · Account Owner/ }));
    expect(await screen.findByText('Landed on /')).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/switch-account')).toEqual([{ switching_account_id: ownAccount.account_id }]);
  });
});

describe('unknown paths', () => {
  it('show Page Not Found', () => {
    renderRoutes([{ path: '*', element: <NotFoundPage /> }], '/no/such/page');
    expect(screen.getByRole('heading', { name: MESSAGES.pageNotFound })).toBeInTheDocument();
  });
});
