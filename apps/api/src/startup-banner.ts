/** What the portal prints once it listens: where it runs, and loudly, which development tools let people in. */
import type { Config, DevTool } from './config.js';
import { DEMO_CUSTOMER, DEMO_ROLE_STAFF, DEMO_STAFF } from './demo/seed.js';

/** Why each tool must never face real customers. */
const DEV_TOOL_WARNINGS: Record<DevTool, (publicUrl: string) => string> = {
  identity: (url) => `identity (${url}/dev/oidc: anyone signs in as any staff e-mail)`,
  mailbox: (url) => `mailbox (${url}/dev/mailbox: anyone reads every mail and OTP)`,
  sandbox: (url) => `sandbox (${url}/sandbox: funds added without a card)`,
  demo: () => 'demo (demo customer and staff accounts)',
};

/** One line: "Development tools on: none", or each tool that is on and what it opens. */
export function devToolsLine(config: Pick<Config, 'devTools' | 'publicUrl'>): string {
  const on = (Object.keys(DEV_TOOL_WARNINGS) as DevTool[]).filter((tool) => config.devTools[tool]);
  if (on.length === 0) return 'Development tools on: none';
  const warning =
    config.devTools.identity || config.devTools.mailbox ? ' (NOT FOR REAL CUSTOMERS: one person can be every staff member)' : '';
  return `Development tools on: ${on.map((tool) => DEV_TOOL_WARNINGS[tool](config.publicUrl)).join(', ')}${warning}`;
}

/** The start-up lines, given how staff single sign-on was set up. */
export function startupBanner(config: Config, staffSingleSignOn: string): string[] {
  const where = config.DATABASE_URL ? 'PostgreSQL' : `embedded PostgreSQL in ${config.DATA_DIR}`;
  const mailbox = config.devTools.mailbox ? `dev mailbox at ${config.publicUrl}/dev/mailbox` : 'mailbox (sent over SMTP)';
  const payments = config.STRIPE_SECRET_KEY
    ? 'Stripe Checkout'
    : config.devTools.sandbox
      ? `sandbox checkout at ${config.publicUrl}/sandbox (test card 4242 4242 4242 4242, nothing is charged)`
      : 'off (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)';
  const cloud =
    config.CLOUD_DRIVER === 'aws'
      ? 'AWS CloudFormation'
      : `simulated, ${config.SIM_TIME_SCALE}x real time${config.SIM_FAIL_PATTERN ? `; clusters matching /${config.SIM_FAIL_PATTERN}/ fail` : ''}`;
  const lines = [
    '',
    `Kumo Cloud ${config.publicUrl}  (database: ${where}; mail: ${mailbox})`,
    `  ${devToolsLine(config)}`,
    `  Staff single sign-on: ${staffSingleSignOn}`,
    `  Card payments: ${payments}`,
    `  Clusters: ${cloud}`,
  ];
  if (config.devTools.demo) {
    lines.push(
      `  Customer sign-in: ${config.publicUrl}/login     as ${DEMO_CUSTOMER.email}`,
      `  Staff sign-in:    ${config.publicUrl}/admin/login as ${DEMO_STAFF.email}`,
      `                    or, for the other staff roles, ${DEMO_ROLE_STAFF.map((staff) => staff.email).join(', ')}`,
      `  One-time passwords arrive in the ${mailbox}.`,
      '',
    );
  }
  return lines;
}
