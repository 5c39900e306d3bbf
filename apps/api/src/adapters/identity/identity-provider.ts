/**
 * The port to an OpenID Connect identity provider (Azure AD or any other issuer, or the bundled
 * development provider). It proves who a person is; it never decides what they may do.
 */
export interface IdentityProvider {
  /** Starts an authorization-code flow: where to send the browser, and what its answer must match. */
  beginSignIn(): Promise<SignInStart>;
  /** Checks the provider's answer against the checks of the flow it belongs to and returns the proven identity. */
  completeSignIn(callbackUrl: URL, checks: SignInChecks): Promise<ProvenIdentity>;
}

/** The values one sign-in attempt must be matched with when the browser comes back. */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SignInStart {
  authorizationUrl: URL;
  checks: SignInChecks;
}

export interface ProvenIdentity {
  /** The e-mail the provider vouches for, lower-cased. */
  email: string;
  subject: string;
}

export type IdentityFailure =
  /** The provider cannot be reached or answers with something that is not OpenID Connect. */
  | 'unavailable'
  /** The person cancelled or refused at the provider. */
  | 'cancelled'
  /** The answer did not pass the checks (state, PKCE, nonce, signature, a used code). */
  | 'rejected'
  /** The identity is proven but carries no usable e-mail. */
  | 'no-email';

export class IdentityError extends Error {
  constructor(
    readonly failure: IdentityFailure,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'IdentityError';
  }
}
