import { MESSAGES, type SsoHandOff } from '@kumo/contract';
import { IdentityError, type IdentityFailure, type IdentityProvider } from '../../adapters/identity/index.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { AuthService } from '../auth/index.js';
import { SSO_PATHS, TRANSACTION_TTL_MS, type SsoFlags, type SsoTransaction } from './sso-transaction.js';

const FAILURE_MESSAGES: Record<IdentityFailure, string> = {
  unavailable: MESSAGES.ssoUnavailable,
  cancelled: MESSAGES.ssoCancelled,
  rejected: MESSAGES.ssoFailed,
  'no-email': MESSAGES.ssoNoEmail,
};

/** Where the browser goes next, and why when the sign-in did not succeed (for the log, never the page). */
export interface SsoOutcome {
  location: string;
  refused?: { reason: string; error?: unknown };
}

/** The console's /oauth2/error page shows the message on the admin login. */
export const errorLocation = (message: string) => `${SSO_PATHS.error}?${new URLSearchParams({ error: message }).toString()}`;

/**
 * The console's /oauth2/redirect hand-off: `token` is URL-safe base64 of {"data":{"jwt_token","refresh_token"}};
 * a pop-up renewal also says so, and whether the user was switched.
 */
export function handOffLocation(tokens: { jwtToken: string; refreshToken: string }, flags: SsoFlags): string {
  const payload: SsoHandOff = { data: { jwt_token: tokens.jwtToken, refresh_token: tokens.refreshToken } };
  const query = new URLSearchParams({ token: Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url') });
  if (flags.sessionExpired) {
    query.set('isSessionExpired', 'true');
    query.set('isUserSwitched', String(flags.userSwitched));
  }
  return `${SSO_PATHS.handOff}?${query.toString()}`;
}

/**
 * Staff single sign-on: the identity provider proves an e-mail, the auth service decides whether it
 * is a staff member and opens the session. Every failure ends on the console's error page with a
 * readable message.
 */
export function createStaffSsoService(deps: {
  /** Absent when no issuer is configured and the development provider is not allowed (production). */
  identity?: IdentityProvider;
  auth: Pick<AuthService, 'signInStaff'>;
  clock: Clock;
}) {
  const { identity, auth, clock } = deps;

  function refused(message: string, reason: string, error?: unknown): SsoOutcome {
    return { location: errorLocation(message), refused: { reason, error } };
  }

  return {
    /** Begins an attempt: the provider's authorization URL and the transaction to keep in the browser. */
    async start(flags: SsoFlags): Promise<SsoOutcome & { transaction?: SsoTransaction }> {
      if (!identity) return refused(MESSAGES.ssoNotConfigured, 'no identity provider is configured');
      try {
        const { authorizationUrl, checks } = await identity.beginSignIn();
        const transaction = { ...checks, flags, expiresAt: clock.now().getTime() + TRANSACTION_TTL_MS };
        return { location: authorizationUrl.href, transaction };
      } catch (error) {
        const failure = error instanceof IdentityError ? error.failure : 'unavailable';
        return refused(FAILURE_MESSAGES[failure], `could not start: ${failure}`, error);
      }
    },

    /** Completes an attempt from the provider's answer; `transaction` is null when the browser holds none for its state. */
    async finish(callbackUrl: URL, transaction: SsoTransaction | null): Promise<SsoOutcome> {
      if (!identity) return refused(MESSAGES.ssoNotConfigured, 'no identity provider is configured');
      if (!transaction) return refused(MESSAGES.ssoExpired, 'no transaction for this state (missing, forged, used or tampered with)');
      if (transaction.expiresAt <= clock.now().getTime()) return refused(MESSAGES.ssoExpired, 'the transaction has expired');

      let email: string;
      try {
        ({ email } = await identity.completeSignIn(callbackUrl, transaction));
      } catch (error) {
        if (error instanceof IdentityError) return refused(FAILURE_MESSAGES[error.failure], `identity not proven: ${error.failure}`, error);
        return refused(MESSAGES.ssoFailed, 'identity not proven', error);
      }

      try {
        const tokens = await auth.signInStaff(email);
        return { location: handOffLocation(tokens, transaction.flags) };
      } catch (error) {
        // An identity the portal does not know as staff: the auth service's message says so.
        if (error instanceof AppError && error.statusCode < 500) return refused(error.message, `not staff (${error.code})`);
        return refused(MESSAGES.ssoFailed, 'the staff session could not be opened', error);
      }
    },
  };
}
export type StaffSsoService = ReturnType<typeof createStaffSsoService>;
