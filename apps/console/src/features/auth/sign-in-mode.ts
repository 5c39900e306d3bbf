/** The one sign-in screen serves three routes: /login, /signup and /admin/login. */
export type SignInMode = 'login' | 'signup' | 'admin';

/** What the OTP step needs to know about who is signing in. */
export interface SignInIdentity {
  email_id: string;
  user_name: string;
}
