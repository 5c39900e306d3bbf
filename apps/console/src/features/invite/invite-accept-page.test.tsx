import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, STORAGE_KEYS } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { getSession, saveTokens, saveUser } from '../../lib/session';
import { InviteAcceptPage } from './invite-accept-page';

function renderAccept(search: string, handlers: Parameters<typeof mockApi>[0]) {
  const api = mockApi(handlers);
  const view = renderRoutes(
    [{ path: '/invite/accept', element: <InviteAcceptPage /> }, landed('/'), landed('/unauthorized-access'), landed('/invite')],
    `/invite/accept${search}`,
  );
  return { ...view, api };
}

const accepted =
  (role: string, signUp = false) =>
  () =>
    jsonResponse(200, { role, sign_up: signUp }, { jwt_token: 'invited-jwt', refresh_token: 'invited-refresh' });

afterEach(() => vi.unstubAllGlobals());

describe('accepting an invitation', () => {
  it('validates the token, signs the invited admin in and opens home', async () => {
    const grace = userDetail({ userName: 'Grace Hopper', emailId: 'grace@example.com', role: 'ACCOUNT_ADMIN' });
    const { api, router } = renderAccept('?token=tok-123', {
      'POST /api/user/invite/accept': accepted('ACCOUNT_ADMIN', true),
      'GET /api/user/detail': () => jsonResponse(200, grace),
    });
    expect(screen.getByText(MESSAGES.validating)).toBeInTheDocument();

    expect(await screen.findByText('Landed on /')).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/invite/accept')).toEqual([{ token: 'tok-123' }]);
    expect(getSession()).toEqual({ jwtToken: 'invited-jwt', refreshToken: 'invited-refresh', user: grace });
    // Home's welcome is the invited person's: no sign-up credits are promised to them.
    expect(router.state.location.state).toEqual({ sign_up: true, invited: true });
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('replaces whoever was signed in before', async () => {
    saveTokens('someone-else', 'someone-else-refresh');
    saveUser(userDetail({ userName: 'Someone Else' }));
    localStorage.setItem('leftover', 'x');
    renderAccept('?token=tok-1', {
      'POST /api/user/invite/accept': (_body, init) => {
        expect(new Headers(init?.headers).get('Authorization')).toBeNull();
        return accepted('ACCOUNT_ADMIN')();
      },
      'GET /api/user/detail': () => jsonResponse(200, userDetail({ role: 'ACCOUNT_ADMIN' })),
    });
    await screen.findByText('Landed on /');
    expect(localStorage.getItem('leftover')).toBeNull();
    expect(getSession().jwtToken).toBe('invited-jwt');
  });

  it('sends a Cluster Member to the unauthorized page', async () => {
    renderAccept('?token=tok-2', {
      'POST /api/user/invite/accept': accepted('CLUSTER_MEMBER'),
      'GET /api/user/detail': () => jsonResponse(200, userDetail({ role: 'CLUSTER_MEMBER' })),
    });
    expect(await screen.findByText('Landed on /unauthorized-access')).toBeInTheDocument();
    expect(getSession().jwtToken).toBe('invited-jwt');
  });

  it('shows the Access Expired page for an expired, used or unknown invitation', async () => {
    const { router } = renderAccept('?token=used', {
      'POST /api/user/invite/accept': () => errorResponse(422, 'INVITATION_INVALID', MESSAGES.accessExpired),
    });
    expect(await screen.findByText('Landed on /invite')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?error=true');
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBeNull();
  });

  it('treats a link without a token as expired', async () => {
    const { router, api } = renderAccept('', {});
    expect(await screen.findByText('Landed on /invite')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?error=true');
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('explains other failures and offers the login', async () => {
    renderAccept('?token=tok-3', { 'POST /api/user/invite/accept': () => errorResponse(429, 'RATE_LIMITED', MESSAGES.rateLimited) });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.rateLimited);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });
});
