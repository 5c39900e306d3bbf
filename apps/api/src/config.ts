import { z } from 'zod';

/** An unset or empty variable both mean "not configured". */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);
const optionalUrl = optionalText.pipe(z.url().optional());

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  /** External PostgreSQL connection string; without it the portal runs its own PostgreSQL server kept in DATA_DIR. */
  DATABASE_URL: optionalUrl,
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /** SMTP server, e.g. smtp://localhost:1025; without it mail goes to the dev mailbox. */
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().trim().min(3).default('Kumo Cloud <no-reply@kumo.cloud>'),
  /** The address customers reach the portal at; used in e-mailed links. */
  PUBLIC_URL: optionalUrl,
  /** Secret for signing tokens and hashing OTPs; generated once and kept in the database when absent. */
  AUTH_SECRET: optionalText.pipe(z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional()),
  /** Requests per minute per client on each sign-in endpoint. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100000).default(20),
  /**
   * Which proxies to believe about the client's address (X-Forwarded-For): a hop count, or a comma list of
   * addresses/CIDRs. Off by default: a client could otherwise rotate the header for fresh rate-limit quota.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((value, context) => parseTrustProxy(value, context)),
  /** OTP and invitation mails per minute across the portal, and per recipient domain. */
  MAIL_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  MAIL_RATE_PER_DOMAIN_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Mails the worker delivers at the same time. */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** An unpaid card checkout is closed after this many hours (Stripe's own limit is 24). */
  CHECKOUT_EXPIRY_HOURS: z.coerce.number().int().min(1).max(24).default(24),
  /** Where clusters run: the simulated cloud inside the portal (default) or AWS CloudFormation. */
  CLOUD_DRIVER: z.enum(['simulated', 'aws']).default('simulated'),
  /** How many times faster than real time the simulated cloud runs (60: a one-hour deployment takes a minute). */
  SIM_TIME_SCALE: z.coerce.number().positive().max(100_000).default(60),
  /** A regular expression on the cluster name: matching clusters fail their stack creation in the simulated cloud. */
  SIM_FAIL_PATTERN: optionalText.refine(
    (value) => value === undefined || isRegExp(value),
    'SIM_FAIL_PATTERN must be a valid regular expression',
  ),
  /** AWS driver: ARN of the versioned bucket that receives a cluster's replicated backups in its backup region; {region} is replaced. */
  AWS_BACKUP_BUCKET_ARN_PATTERN: optionalText.refine(
    (value) => value === undefined || /^arn:aws[a-z-]*:s3:::[a-z0-9.{}-]*\{region\}[a-z0-9.{}-]*$/.test(value),
    'AWS_BACKUP_BUCKET_ARN_PATTERN must be an S3 bucket ARN containing {region}',
  ),
  /** AWS driver: EC2 key pair put on the cluster nodes for operator SSH access (none by default). */
  AWS_KEY_NAME: optionalText,
  /** AWS driver: addresses allowed to reach a cluster's Web Portal and Kumo Manager (default anywhere). */
  AWS_INGRESS_CIDR: optionalText.refine(
    (value) => value === undefined || /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/.test(value),
    'AWS_INGRESS_CIDR must be an IPv4 CIDR block',
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** OpenID Connect issuer for staff single sign-on (Azure AD: https://login.microsoftonline.com/{tenant}/v2.0); without it a bundled development provider is used outside production. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalText.pipe(z.string().max(256).optional()),
  /** Without a secret the portal signs in as a public client (PKCE only). */
  OIDC_CLIENT_SECRET: optionalText.pipe(z.string().max(1024).optional()),
  /** Stripe secret key and webhook signing secret: both set, card payments go through Stripe Checkout; neither, through the sandbox checkout. */
  STRIPE_SECRET_KEY: optionalText.pipe(z.string().startsWith('sk_', 'STRIPE_SECRET_KEY must start with sk_').optional()),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(z.string().startsWith('whsec_', 'STRIPE_WEBHOOK_SECRET must start with whsec_').optional()),
  /** Comma-separated staff e-mails that approve sensitive admin actions; when unset, every other SYSTEM_ADMIN approves. */
  APPROVER_EMAILS: optionalText.transform((value) =>
    value
      ?.split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  ),
  /** Seed the demo customer and staff member (embedded default only, unless set explicitly). */
  DEMO_DATA: z
    .enum(['true', 'false', ''])
    .optional()
    .transform((value) => (value === 'true' ? true : value === 'false' ? false : undefined)),
});

function isRegExp(text: string): boolean {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}

export type Config = z.infer<typeof configSchema> & { publicUrl: string; demoData: boolean };

export class ConfigError extends Error {}

/** Parses the environment once; throws ConfigError listing every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && !config.SMTP_URL) {
    throw new ConfigError('Invalid configuration:\n  SMTP_URL: SMTP_URL is required in production (the dev mailbox is for local use only)');
  }
  const oidcProblem = oidcConfigProblem(config);
  if (oidcProblem) throw new ConfigError(`Invalid configuration:\n  ${oidcProblem}`);
  const paymentsProblem = paymentsConfigProblem(config);
  if (paymentsProblem) throw new ConfigError(`Invalid configuration:\n  ${paymentsProblem}`);
  return {
    ...config,
    publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ''),
    demoData: config.DEMO_DATA ?? !config.DATABASE_URL,
  };
}

function oidcConfigProblem(config: z.infer<typeof configSchema>): string | undefined {
  if (config.OIDC_ISSUER && !config.OIDC_CLIENT_ID) return 'OIDC_CLIENT_ID: OIDC_CLIENT_ID is required with OIDC_ISSUER';
  if (!config.OIDC_ISSUER && (config.OIDC_CLIENT_ID || config.OIDC_CLIENT_SECRET)) {
    return 'OIDC_ISSUER: OIDC_ISSUER is required with an OIDC client';
  }
  if (config.NODE_ENV === 'production' && config.OIDC_ISSUER && !config.OIDC_ISSUER.startsWith('https:')) {
    return 'OIDC_ISSUER: OIDC_ISSUER must be https in production';
  }
  return undefined;
}

function paymentsConfigProblem(config: z.infer<typeof configSchema>): string | undefined {
  if (!!config.STRIPE_SECRET_KEY !== !!config.STRIPE_WEBHOOK_SECRET) {
    return 'STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together';
  }
  return undefined;
}

/** Fastify's trustProxy: false, a hop count, or the addresses/CIDRs of the proxies in front of the portal. */
export type TrustProxy = false | number | string[];

const HOPS = /^\d{1,2}$/;
const ADDRESS_OR_CIDR = /^[0-9A-Fa-f:.]+(?:\/\d{1,3})?$/;

function parseTrustProxy(value: string | undefined, context: z.RefinementCtx): TrustProxy {
  if (!value || value === 'false' || value === '0') return false;
  if (HOPS.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (
    list.length === 0 ||
    !list.every((item) => ADDRESS_OR_CIDR.test(item) || item === 'loopback' || item === 'linklocal' || item === 'uniquelocal')
  ) {
    context.addIssue({ code: 'custom', message: 'TRUST_PROXY must be a hop count or a comma list of addresses/CIDRs' });
    return false;
  }
  return list;
}
