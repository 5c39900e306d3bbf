import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../../test/api';
import { landed, renderRoutes } from '../../../../test/render';
import type { SignInMode } from '../sign-in-mode';
import { SignInScreen } from './sign-in-screen';

/** What a keyboard user meets on the sign-in screens, and error texts whose advice is a link. */

const OTP_SENT = () => jsonResponse(200, { otp_sent: true, message: MESSAGES.otpSent });
const PATHS: Record<SignInMode, string> = { login: '/login', signup: '/signup', admin: '/admin/login' };

function renderSignIn(mode: SignInMode, state?: unknown) {
  return renderRoutes(
    [
      { path: '/login', element: <SignInScreen key="login" mode="login" /> },
      { path: '/signup', element: <SignInScreen key="signup" mode="signup" /> },
      { path: '/admin/login', element: <SignInScreen key="admin" mode="admin" /> },
      landed('/'),
    ],
    { pathname: PATHS[mode], state },
  );
}

/** Renders a sign-in screen and waits for its first step's form, which loads on demand (not part of /login's first download). */
async function openSignIn(mode: SignInMode, state?: unknown) {
  const rendered = renderSignIn(mode, state);
  await screen.findByLabelText('Email');
  return rendered;
}

/** The sign-up form loads on demand (it is not part of /login's first download). */
const signUpFormLoaded = () => screen.findByLabelText('Full name');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Typing is simulated key by key; on a loaded machine that takes longer than the default five seconds.
describe('keyboard on the sign-in screens', { timeout: 20_000 }, () => {
  it('after the e-mail step, focus is in the OTP field', async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/user/login': OTP_SENT });
    await openSignIn('login');
    await user.click(screen.getByLabelText('Email'));
    await user.keyboard('ada@example.com{Enter}');
    const otp = await screen.findByLabelText('One-time password');
    await waitFor(() => expect(otp).toHaveFocus());
    // Typing goes straight into the code.
    await user.keyboard('123');
    expect(otp).toHaveValue('123');
  });

  it('after signing up, focus is in the OTP field', async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/user/register': OTP_SENT });
    await openSignIn('signup');
    await signUpFormLoaded();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    const otp = await screen.findByLabelText('One-time password');
    await waitFor(() => expect(otp).toHaveFocus());
  });

  it('after Resend, focus goes back to the OTP field', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    mockApi({ 'POST /api/user/login': OTP_SENT, 'POST /api/user/resend-otp': OTP_SENT });
    await openSignIn('login');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com{Enter}');
    const otp = await screen.findByLabelText('One-time password');
    for (let second = 0; second < 59; second += 1) await act(() => vi.advanceTimersByTimeAsync(1_000));

    const resend = screen.getByRole('button', { name: 'Resend' });
    resend.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Resend in 00:59')).toBeInTheDocument();
    await waitFor(() => expect(otp).toHaveFocus());
  });

  it('going Back from the OTP step keeps the terms box ticked', async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/user/register': OTP_SENT });
    await openSignIn('signup');
    await signUpFormLoaded();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    await screen.findByLabelText('One-time password');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('checkbox')).toBeChecked();
    // So the details can be sent again at once.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign Up' })).toBeEnabled());
  });
});

describe('error texts that name an action link to it', { timeout: 20_000 }, () => {
  it("'Please consider signing up.' on the login links to /signup", async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/user/login': () => errorResponse(404, 'USER_NOT_FOUND', MESSAGES.userNotRegistered) });
    const { router } = await openSignIn('login');
    await user.type(screen.getByLabelText('Email'), 'nobody@example.com{Enter}');

    const link = await screen.findByRole('link', { name: 'signing up' });
    expect(link).toHaveAttribute('href', '/signup');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(MESSAGES.userNotRegistered);
    await user.click(link);
    expect(router.state.location.pathname).toBe('/signup');
  });

  it("'Please log in.' on the sign-up links to /login", async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /api/user/register': () => errorResponse(409, 'USER_ALREADY_EXISTS', MESSAGES.userAlreadyRegistered) });
    const { router } = await openSignIn('signup');
    await signUpFormLoaded();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));

    const link = await screen.findByRole('link', { name: 'log in' });
    expect(link).toHaveAttribute('href', '/login');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(MESSAGES.userAlreadyRegistered);
    await user.click(link);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a handed-over message naming the login links to it; others stay plain text', () => {
    renderSignIn('login', { message: MESSAGES.sessionExpired });
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.sessionExpired);
    expect(screen.getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/login');
  });

  it('a message naming no action has no link', () => {
    renderSignIn('admin', { message: 'Single sign-on was cancelled.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Single sign-on was cancelled.');
    expect(screen.queryByRole('link', { name: /log in|signing up/ })).not.toBeInTheDocument();
  });
});
