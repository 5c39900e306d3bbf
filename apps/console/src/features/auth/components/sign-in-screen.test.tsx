import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, STORAGE_KEYS, type UserDetail } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../../test/api';
import { landed, renderRoutes } from '../../../../test/render';
import { userDetail } from '../../../../test/users';
import { saveTokens, saveUser } from '../../../lib/session';
import type { SignInMode } from '../sign-in-mode';
import { SignInScreen } from './sign-in-screen';

const OTP_SENT = () => jsonResponse(200, { otp_sent: true, message: MESSAGES.otpSent });

const user = (role: UserDetail['role']) => userDetail({ role });

const PATHS: Record<SignInMode, string> = { login: '/login', signup: '/signup', admin: '/admin/login' };

function renderSignIn(mode: SignInMode, state?: unknown) {
  return renderRoutes(
    [{ path: PATHS[mode], element: <SignInScreen mode={mode} /> }, landed('/'), landed('/admin/customers'), landed('/unauthorized-access')],
    { pathname: PATHS[mode], state },
  );
}

/** Renders a sign-in screen and waits for its first step's form, which loads on demand (not part of /login's first download). */
async function openSignIn(mode: SignInMode, state?: unknown) {
  const rendered = renderSignIn(mode, state);
  await screen.findByLabelText('Email');
  return rendered;
}

const emailInput = () => screen.getByLabelText('Email');
const otpInput = () => screen.getByLabelText('One-time password');
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

async function reachOtpStep(email = 'ada@example.com') {
  type(emailInput(), email);
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
  return screen.findByLabelText('One-time password');
}

async function fillSignUp(name = 'Ada Lovelace') {
  type(emailInput(), 'ada@example.com');
  type(screen.getByLabelText('Full name'), name);
  fireEvent.click(screen.getByRole('checkbox'));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled());
}

/** Moves fake time on one second at a time, letting React render each countdown tick. */
async function passSeconds(seconds: number) {
  for (let i = 0; i < seconds; i += 1) {
    await act(() => vi.advanceTimersByTimeAsync(1_000));
  }
}

/** The sign-up form loads on demand (it is not part of /login's first download). */
const signUpFormLoaded = () => screen.findByLabelText('Full name');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('login: e-mail step', () => {
  it('keeps Login disabled while the e-mail is empty', async () => {
    await openSignIn('login');
    const login = screen.getByRole('button', { name: 'Login' });
    expect(login).toBeDisabled();
    type(emailInput(), 'a');
    expect(login).toBeEnabled();
    type(emailInput(), '   ');
    expect(login).toBeDisabled();
  });

  it('explains a malformed or missing e-mail under the field', async () => {
    await openSignIn('login');
    type(emailInput(), 'ada@');
    fireEvent.blur(emailInput());
    await waitFor(() => expect(emailInput()).toHaveAccessibleDescription(MESSAGES.emailInvalid));
    type(emailInput(), '');
    await waitFor(() => expect(emailInput()).toHaveAccessibleDescription(MESSAGES.emailRequired));
  });

  it('sends the one-time password and moves to the OTP step', async () => {
    const api = mockApi({ 'POST /api/user/login': OTP_SENT });
    await openSignIn('login');

    await reachOtpStep(' Ada@Example.com ');

    expect(api.bodiesOf('POST /api/user/login')).toEqual([{ email_id: 'ada@example.com', auth_provider: 'EMAIL_OTP_AUTH' }]);
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });

  it("shows the server's error under the e-mail and stays on the e-mail step", async () => {
    mockApi({ 'POST /api/user/login': () => errorResponse(404, 'USER_NOT_FOUND', MESSAGES.userNotRegistered) });
    await openSignIn('login');
    type(emailInput(), 'nobody@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(emailInput()).toHaveAccessibleDescription(MESSAGES.userNotRegistered));
    expect(screen.queryByLabelText('One-time password')).not.toBeInTheDocument();
  });

  it('links to sign-up, and offers single sign-on only on the admin login', async () => {
    await openSignIn('login');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(screen.queryByRole('button', { name: 'Sign in with single sign-on' })).not.toBeInTheDocument();
  });

  it('offers single sign-on on the admin login', async () => {
    await openSignIn('admin');
    expect(screen.getByRole('button', { name: 'Sign in with single sign-on' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
  });
});

describe('sign-up: details step', () => {
  it('starts with e-mail, full name and terms, and promises the free credits', async () => {
    await openSignIn('signup');
    await signUpFormLoaded();
    expect(emailInput()).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toBeInTheDocument();
    expect(screen.getByText('Get $500 in free credits')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('keeps Sign Up disabled until the terms are accepted and the name and e-mail are valid', async () => {
    await openSignIn('signup');
    await signUpFormLoaded();
    const signUp = screen.getByRole('button', { name: 'Sign Up' });
    expect(signUp).toBeDisabled();

    type(emailInput(), 'ada@example.com');
    type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await waitFor(() => expect(signUp).toBeDisabled());

    fireEvent.click(screen.getByRole('checkbox'));
    await waitFor(() => expect(signUp).toBeEnabled());

    type(screen.getByLabelText('Full name'), 'A');
    await waitFor(() => expect(signUp).toBeDisabled());
    type(emailInput(), 'ada');
    type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await waitFor(() => expect(signUp).toBeDisabled());
  });

  it('shows name errors under the name field', async () => {
    await openSignIn('signup');
    await signUpFormLoaded();
    const name = screen.getByLabelText('Full name');
    type(name, 'Ada 42');
    fireEvent.blur(name);
    await waitFor(() => expect(name).toHaveAccessibleDescription(MESSAGES.nameInvalid));
    type(name, '');
    await waitFor(() => expect(name).toHaveAccessibleDescription(MESSAGES.nameRequired));
  });

  it('drops leading spaces and caps the name at 50 characters', async () => {
    await openSignIn('signup');
    await signUpFormLoaded();
    const name = screen.getByLabelText('Full name');
    type(name, `   ${'Ab'.repeat(40)}`);
    expect(name).toHaveValue('Ab'.repeat(25));
  });

  it('opens the terms and the privacy policy in new tabs', async () => {
    await openSignIn('signup');
    await signUpFormLoaded();
    for (const [label, href] of [
      ['Terms of Use', '/terms-of-use'],
      ['Privacy Policy', '/privacy-policy'],
    ]) {
      const link = screen.getByRole('link', { name: label });
      expect(link).toHaveAttribute('href', href);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    }
  });

  it('registers and moves to the OTP step; Back returns to the details', async () => {
    const api = mockApi({ 'POST /api/user/register': OTP_SENT });
    await openSignIn('signup');
    await signUpFormLoaded();
    await fillSignUp();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));

    await screen.findByLabelText('One-time password');
    expect(api.bodiesOf('POST /api/user/register')).toEqual([
      { email_id: 'ada@example.com', user_name: 'Ada Lovelace', auth_provider: 'EMAIL_OTP_AUTH' },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace');
    expect(emailInput()).toHaveValue('ada@example.com');
  });

  it('shows a registration error under the e-mail and stays on the details step', async () => {
    mockApi({ 'POST /api/user/register': () => errorResponse(409, 'USER_ALREADY_EXISTS', MESSAGES.userAlreadyRegistered) });
    await openSignIn('signup');
    await signUpFormLoaded();
    await fillSignUp();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));

    await waitFor(() => expect(emailInput()).toHaveAccessibleDescription(MESSAGES.userAlreadyRegistered));
    expect(screen.getByLabelText('Full name')).toBeInTheDocument();
  });
});

describe('OTP step', () => {
  it('accepts digits only, at most six, and enables Verify only with all six', async () => {
    mockApi({ 'POST /api/user/login': OTP_SENT });
    await openSignIn('login');
    const otp = await reachOtpStep();
    const verify = screen.getByRole('button', { name: 'Verify' });

    type(otp, '1a2-b3');
    expect(otp).toHaveValue('123');
    expect(verify).toBeDisabled();
    type(otp, '12345678');
    expect(otp).toHaveValue('123456');
    expect(verify).toBeEnabled();
  });

  it('shows the lock warning discreetly', async () => {
    mockApi({ 'POST /api/user/login': OTP_SENT });
    await openSignIn('login');
    await reachOtpStep();
    expect(screen.getByText(MESSAGES.otpLockWarning)).toBeInTheDocument();
  });

  it('goes Back to the e-mail step on login, keeping the e-mail', async () => {
    mockApi({ 'POST /api/user/login': OTP_SENT });
    await openSignIn('login');
    await reachOtpStep();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(emailInput()).toHaveValue('ada@example.com');
  });

  it('shows an authentication error under the OTP field and clears the OTP', async () => {
    mockApi({
      'POST /api/user/login': OTP_SENT,
      'POST /api/user/authenticate': () => errorResponse(422, 'OTP_INVALID', MESSAGES.otpInvalid),
    });
    await openSignIn('login');
    const otp = await reachOtpStep();
    type(otp, '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(otp).toHaveAccessibleDescription(MESSAGES.otpInvalid));
    expect(otp).toHaveValue('');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });

  it('counts down from 00:59 and then offers Resend, which restarts the countdown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({ 'POST /api/user/login': OTP_SENT, 'POST /api/user/resend-otp': OTP_SENT });
    await openSignIn('login');
    await reachOtpStep();

    expect(screen.getByText('Resend in 00:59')).toBeInTheDocument();
    await passSeconds(58);
    expect(screen.getByText('Resend in 00:01')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend' })).not.toBeInTheDocument();
    await passSeconds(1);

    fireEvent.click(screen.getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Resend in 00:59')).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/resend-otp')).toEqual([{ email_id: 'ada@example.com' }]);
  });

  it('shows a resend error under the OTP field and clears the OTP', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      'POST /api/user/login': OTP_SENT,
      'POST /api/user/resend-otp': () => errorResponse(429, 'OTP_RESEND_LIMIT', MESSAGES.otpResendLimit),
    });
    await openSignIn('login');
    const otp = await reachOtpStep();
    type(otp, '12');
    await passSeconds(59);
    fireEvent.click(screen.getByRole('button', { name: 'Resend' }));

    await waitFor(() => expect(otp).toHaveAccessibleDescription(MESSAGES.otpResendLimit));
    expect(otp).toHaveValue('');
  });
});

describe('after authentication', () => {
  function signInAs(role: UserDetail['role'], signUp = false) {
    return mockApi({
      'POST /api/user/login': OTP_SENT,
      'POST /api/user/register': OTP_SENT,
      'POST /api/user/authenticate': () => jsonResponse(200, { role, sign_up: signUp }, { jwt_token: 'jwt-1', refresh_token: 'refresh-1' }),
      'GET /api/user/detail': () => jsonResponse(200, user(role)),
    });
  }

  async function verify() {
    type(otpInput(), '123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  }

  it('stores the tokens and the user, and takes an account owner home', async () => {
    const api = signInAs('ACCOUNT_OWNER');
    const { router } = await openSignIn('login');
    await reachOtpStep();
    await verify();

    await screen.findByText('Landed on /');
    expect(router.state.location.state).toEqual({ sign_up: false });
    expect(api.bodiesOf('POST /api/user/authenticate')).toEqual([{ email_id: 'ada@example.com', otp: '123456', user_name: '' }]);
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBe('jwt-1');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-1');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.userInfo) ?? '{}')).toMatchObject({ role: 'ACCOUNT_OWNER' });
  });

  it('passes sign_up to home after a sign-up, with the name in the authentication', async () => {
    const api = signInAs('ACCOUNT_OWNER', true);
    const { router } = await openSignIn('signup');
    await signUpFormLoaded();
    await fillSignUp();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await screen.findByLabelText('One-time password');
    await verify();

    await screen.findByText('Landed on /');
    expect(router.state.location.state).toEqual({ sign_up: true });
    expect(api.bodiesOf('POST /api/user/authenticate')[0]).toMatchObject({ user_name: 'Ada Lovelace' });
  });

  it('takes staff to the admin customers page', async () => {
    signInAs('SYSTEM_SUPPORT');
    await openSignIn('admin');
    await reachOtpStep();
    await verify();
    expect(await screen.findByText('Landed on /admin/customers')).toBeInTheDocument();
  });

  it('takes other roles to the unauthorized page', async () => {
    signInAs('CLUSTER_MEMBER');
    await openSignIn('login');
    await reachOtpStep();
    await verify();
    expect(await screen.findByText('Landed on /unauthorized-access')).toBeInTheDocument();
  });

  it('says it is authenticating while the OTP is checked', async () => {
    mockApi({ 'POST /api/user/login': OTP_SENT, 'POST /api/user/authenticate': () => new Promise<Response>(() => {}) });
    await openSignIn('login');
    await reachOtpStep();
    await verify();
    expect(await screen.findByText(MESSAGES.authenticating)).toBeInTheDocument();
  });
});

describe('arriving at the sign-in screen', () => {
  it('redirects a signed-in account admin home and staff to the customers page', () => {
    saveTokens('jwt', 'refresh');
    saveUser(user('SYSTEM_ADMIN'));
    renderSignIn('login');
    expect(screen.getByText('Landed on /admin/customers')).toBeInTheDocument();
  });

  it('shows a message from navigation state as a banner for five seconds', async () => {
    vi.useFakeTimers();
    renderSignIn('admin', { message: 'Single sign-on was cancelled.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Single sign-on was cancelled.');

    await act(async () => vi.advanceTimersByTime(4_900));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(100));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
