/**
 * Where the browser tests find the portal and the mail sink the global set-up starts. E2E_PORT_BASE moves
 * all three ports (portal, SMTP sink, mail reader) so two runs on one machine do not collide.
 */
const base = Number(process.env.E2E_PORT_BASE ?? 8181);
export const E2E_PORT = base;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const SMTP_SINK_PORT = process.env.E2E_PORT_BASE ? base + 2 : 2526;
export const MAIL_READER_URL = `http://127.0.0.1:${base + 1}`;
/** The portal's master secret; a test mints tokens the portal accepts (e.g. one already expired) with the access-token key derived from it. */
export const E2E_AUTH_SECRET = 'e2e-secret-for-minting-test-tokens-0123456789';
/** Clusters whose names match fail their stack creation in the simulated cloud the portal runs. */
export const SIM_FAIL_PATTERN = '^Failing';
