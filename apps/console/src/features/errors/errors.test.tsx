import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, STORAGE_KEYS } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { InvitePage } from './invite-page';
import { NotFoundPage } from './not-found-page';
import { OAuth2ErrorPage } from './oauth2-error-page';
import { UnauthorizedPage } from './unauthorized-page';

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
      [{ path: '/unauthorized-access', element: <UnauthorizedPage /> }, landed('/login'), landed('/admin/login')],
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

  it('logs staff out to the admin login', async () => {
    renderUnauthorized('SYSTEM_DEVOPS');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Landed on /admin/login')).toBeInTheDocument();
  });
});

describe('unknown paths', () => {
  it('show Page Not Found', () => {
    renderRoutes([{ path: '*', element: <NotFoundPage /> }], '/no/such/page');
    expect(screen.getByRole('heading', { name: MESSAGES.pageNotFound })).toBeInTheDocument();
  });
});
