/** The identity port: what staff single sign-on needs from an OpenID Connect provider, and the factory choosing it. */
export * from './identity-provider.js';
export { createStaffIdentity } from './staff-identity.js';
