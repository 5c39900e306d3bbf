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
  /** SMTP server, e.g. smtp://localhost:1025; without it mail goes to the dev mailbox when DEV_TOOLS has it, else the portal refuses to start. */
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().trim().min(3).default('Kumo Cloud <no-reply@kumo.cloud>'),
  /** The address customers reach the portal at; used in e-mailed links. */
  PUBLIC_URL: optionalUrl,
  /**
   * The master secret every signing, hashing and sealing key is derived from. Required in production; elsewhere,
   * when absent, one is generated and kept in the database, which is for development only (a database reader has it).
   */
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
  /** Idle auto-stop of a new cluster: its minutes without a query (10 to 1,440), or `off`. */
  AUTO_STOP_DEFAULT_MINUTES: z
    .string()
    .default('60')
    .refine((value) => value === 'off' || (/^\d+$/.test(value) && Number(value) >= 10 && Number(value) <= 1440), {
      error: 'AUTO_STOP_DEFAULT_MINUTES must be off or a whole number of minutes from 10 to 1440',
    })
    .transform((value) => (value === 'off' ? null : Number(value))),
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
  /** AWS driver: the portal's own outbound addresses, let in beside a cluster's network access list (its SQL console and activity reads). */
  AWS_PORTAL_CIDR: optionalText.refine(
    (value) => value === undefined || /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/.test(value),
    'AWS_PORTAL_CIDR must be an IPv4 CIDR block',
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** OpenID Connect issuer for staff single sign-on (Azure AD: https://login.microsoftonline.com/{tenant}/v2.0); without it the bundled development provider when DEV_TOOLS has it, else no single sign-on. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalText.pipe(z.string().max(256).optional()),
  /** Without a secret the portal signs in as a public client (PKCE only). */
  OIDC_CLIENT_SECRET: optionalText.pipe(z.string().max(1024).optional()),
  /** Stripe secret key and webhook signing secret: both set, card payments go through Stripe Checkout; neither, through the sandbox checkout when DEV_TOOLS has it, else card payments are off. */
  STRIPE_SECRET_KEY: optionalText.pipe(z.string().startsWith('sk_', 'STRIPE_SECRET_KEY must start with sk_').optional()),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(z.string().startsWith('whsec_', 'STRIPE_WEBHOOK_SECRET must start with whsec_').optional()),
  /** Comma-separated staff e-mails that approve sensitive admin actions; when unset, every other SYSTEM_ADMIN approves. */
  APPROVER_EMAILS: optionalText.transform((value) =>
    value
      ?.split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  ),
  /** `true`: webhook endpoints may be http:// and resolve to loopback, private or link-local addresses (tests, a private network). */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: 'WEBHOOK_ALLOW_PRIVATE must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * The development tools to run (a comma list of DEV_TOOL_NAMES, or `none`): each lets a person in without a real
   * identity or pay without a real card. Unset: all of them on the embedded default (no DATABASE_URL), none otherwise.
   */
  DEV_TOOLS: optionalText.transform((value, context) => parseDevTools(value, context)),
  /** Replaced by DEV_TOOLS=demo; refused, so an old setting is not silently ignored. */
  DEMO_DATA: optionalText,
});

function isRegExp(text: string): boolean {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What lets a person in without a real identity or pay without a real card: the bundled identity provider at
 * /dev/oidc, the dev mailbox at /dev/mailbox, the sandbox checkout at /sandbox, and the demo customer and staff.
 */
export const DEV_TOOL_NAMES = ['identity', 'mailbox', 'sandbox', 'demo'] as const;
export type DevTool = (typeof DEV_TOOL_NAMES)[number];
/** Which development tools run; a tool whose real counterpart is configured (OIDC_ISSUER, SMTP_URL, Stripe) is off. */
export type DevTools = Record<DevTool, boolean>;

type ParsedConfig = z.infer<typeof configSchema>;
export type Config = Omit<ParsedConfig, 'DEV_TOOLS' | 'DEMO_DATA'> & { publicUrl: string; devTools: DevTools; demoData: boolean };

export class ConfigError extends Error {}

/** Parses the environment once; throws ConfigError listing every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const problem =
    devToolsProblem(config) ??
    authSecretProblem(config) ??
    mailProblem(config) ??
    oidcConfigProblem(config) ??
    paymentsConfigProblem(config);
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
  const { DEV_TOOLS: _named, DEMO_DATA: _replaced, ...rest } = config;
  const devTools = effectiveDevTools(config);
  return {
    ...rest,
    publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ''),
    devTools,
    demoData: devTools.demo,
  };
}

/** The tools asked for: DEV_TOOLS when set, else every tool on the embedded default only; never in production. */
function requestedDevTools(config: ParsedConfig): ReadonlySet<DevTool> {
  if (config.NODE_ENV === 'production') return new Set();
  if (config.DEV_TOOLS) return config.DEV_TOOLS;
  return new Set(config.DATABASE_URL ? [] : DEV_TOOL_NAMES);
}

function effectiveDevTools(config: ParsedConfig): DevTools {
  const requested = requestedDevTools(config);
  return {
    identity: requested.has('identity') && !config.OIDC_ISSUER,
    mailbox: requested.has('mailbox') && !config.SMTP_URL,
    sandbox: requested.has('sandbox') && !config.STRIPE_SECRET_KEY,
    demo: requested.has('demo'),
  };
}

function devToolsProblem(config: ParsedConfig): string | undefined {
  if (config.DEMO_DATA !== undefined) return 'DEMO_DATA: DEMO_DATA is replaced by DEV_TOOLS (e.g. DEV_TOOLS=demo,mailbox)';
  if (config.NODE_ENV === 'production' && config.DEV_TOOLS && config.DEV_TOOLS.size > 0) {
    return `DEV_TOOLS: development tools are refused in production (NODE_ENV=production); unset DEV_TOOLS`;
  }
  return undefined;
}

/** A master secret kept in the database would give its keys to anyone who reads the database or a backup. */
function authSecretProblem(config: ParsedConfig): string | undefined {
  if (config.NODE_ENV === 'production' && !config.AUTH_SECRET) {
    return 'AUTH_SECRET: AUTH_SECRET is required in production (32+ characters, e.g. `openssl rand -base64 48`): a generated one would be kept in the database';
  }
  return undefined;
}

/** Mail must reach people: a real SMTP server, or the dev mailbox when it is one of the tools. */
function mailProblem(config: ParsedConfig): string | undefined {
  if (config.SMTP_URL) return undefined;
  if (config.NODE_ENV === 'production') {
    return 'SMTP_URL: SMTP_URL is required in production (the dev mailbox is for local use only)';
  }
  if (requestedDevTools(config).has('mailbox')) return undefined;
  return 'SMTP_URL: SMTP_URL is required unless DEV_TOOLS names mailbox (the dev mailbox shows every mail to anyone)';
}

function oidcConfigProblem(config: ParsedConfig): string | undefined {
  if (config.OIDC_ISSUER && !config.OIDC_CLIENT_ID) return 'OIDC_CLIENT_ID: OIDC_CLIENT_ID is required with OIDC_ISSUER';
  if (!config.OIDC_ISSUER && (config.OIDC_CLIENT_ID || config.OIDC_CLIENT_SECRET)) {
    return 'OIDC_ISSUER: OIDC_ISSUER is required with an OIDC client';
  }
  if (config.NODE_ENV === 'production' && config.OIDC_ISSUER && !config.OIDC_ISSUER.startsWith('https:')) {
    return 'OIDC_ISSUER: OIDC_ISSUER must be https in production';
  }
  return undefined;
}

function paymentsConfigProblem(config: ParsedConfig): string | undefined {
  if (!!config.STRIPE_SECRET_KEY !== !!config.STRIPE_WEBHOOK_SECRET) {
    return 'STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together';
  }
  return undefined;
}

function parseDevTools(value: string | undefined, context: z.RefinementCtx): ReadonlySet<DevTool> | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return new Set();
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(DEV_TOOL_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `DEV_TOOLS is \`none\` or a comma list of ${DEV_TOOL_NAMES.join(', ')} (not ${unknown.join(', ')})`,
    });
  }
  return new Set(names.filter((name): name is DevTool => (DEV_TOOL_NAMES as readonly string[]).includes(name)));
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
