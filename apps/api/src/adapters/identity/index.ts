/** The identity port: what staff single sign-on needs from an OpenID Connect provider, real or bundled. */
export * from './identity-provider.js';
