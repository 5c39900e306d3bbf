import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { landed, renderRoutes } from '../../../../test/render';
import { getSession, saveTokens, saveUser } from '../../../lib/session';
import { userDetail } from '../../../../test/users';
import { OAuth2RedirectPage } from './oauth2-redirect-page';

function tokenParam(data: object): string {
  return btoa(JSON.stringify({ data })).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function renderRedirect(search: string) {
  return renderRoutes(
    [{ path: '/oauth2/redirect', element: <OAuth2RedirectPage /> }, landed('/admin/customers'), landed('/admin/login')],
    `/oauth2/redirect${search}`,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('single sign-on redirect', () => {
  it('stores the token pair from the URL-safe token and opens the customers list', async () => {
    renderRedirect(`?token=${tokenParam({ jwt_token: 'jwt-sso', refresh_token: 'refresh-sso' })}`);
    expect(await screen.findByText('Landed on /admin/customers')).toBeInTheDocument();
    expect(getSession()).toMatchObject({ jwtToken: 'jwt-sso', refreshToken: 'refresh-sso', user: null });
  });

  it('goes to the admin login without a token or without a jwt_token in it', async () => {
    renderRedirect(`?token=${tokenParam({ refresh_token: 'r' })}`);
    expect(await screen.findByText('Landed on /admin/login')).toBeInTheDocument();
    expect(getSession().jwtToken).toBeNull();
  });

  it('keeps an existing session and opens the customers list', async () => {
    saveTokens('jwt-old', 'refresh-old');
    saveUser(userDetail({ role: 'SYSTEM_ADMIN' }));
    renderRedirect(`?token=${tokenParam({ jwt_token: 'jwt-new', refresh_token: 'r' })}`);
    expect(await screen.findByText('Landed on /admin/customers')).toBeInTheDocument();
    expect(getSession().jwtToken).toBe('jwt-old');
  });

  it('in a session-renewal pop-up, hands the tokens to the opener and closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const postMessage = vi.fn();
    vi.stubGlobal('opener', { postMessage });
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    renderRedirect(`?isSessionExpired=true&isUserSwitched=true&token=${tokenParam({ jwt_token: 'j2', refresh_token: 'r2' })}`);

    expect(postMessage).toHaveBeenCalledWith({ jwt_token: 'j2', refresh_token: 'r2', userSwitched: true }, window.location.origin);
    expect(close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(close).toHaveBeenCalledOnce();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('finishes a renewal as a normal sign-in when there is no opener to hand the tokens to', async () => {
    saveTokens('jwt-expired', 'refresh-expired');
    vi.stubGlobal('opener', null);
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    renderRedirect(`?isSessionExpired=true&isUserSwitched=false&token=${tokenParam({ jwt_token: 'j3', refresh_token: 'r3' })}`);
    expect(await screen.findByText('Landed on /admin/customers')).toBeInTheDocument();
    expect(getSession()).toMatchObject({ jwtToken: 'j3', refreshToken: 'r3' });
    expect(close).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('reads the token the server builds: URL-safe base64 without padding, characters that need - and _', async () => {
    // Chosen so that standard base64 of the payload contains + and / and needs padding.
    const data = { jwt_token: 'eyJ>>>.p?~~.s', refresh_token: 'r>?~' };
    const token = tokenParam(data);
    expect(token).toMatch(/[-_]/);
    renderRedirect(`?token=${token}`);
    expect(await screen.findByText('Landed on /admin/customers')).toBeInTheDocument();
    expect(getSession()).toMatchObject({ jwtToken: data.jwt_token, refreshToken: data.refresh_token });
  });
});
