/** Where the browser tests find the portal and the mail sink the global set-up starts. */
export const E2E_PORT = 8181;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const SMTP_SINK_PORT = 2526;
export const MAIL_READER_URL = 'http://127.0.0.1:8182';
/** The portal's token-signing secret, so a test can mint tokens the portal accepts (e.g. one already expired). */
export const E2E_AUTH_SECRET = 'e2e-secret-for-minting-test-tokens-0123456789';
