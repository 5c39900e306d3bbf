import type { ReceivedMail } from '../smtp-sink.js';
import { sleep } from './portal-process.js';

/** Counts every HTTP request the traffic sends, whatever its outcome. */
export interface RequestCounter {
  requests: number;
}

export interface Session {
  jwt: string;
  xsrf: string;
}

/** What the portal answered; `status` 0 when no answer came (connection refused or reset, timeout). */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Headers;
}

const json = { 'content-type': 'application/json' };
export const CLUSTER_PASSWORD = 'Str0ng!Passw0rd';

export async function request(
  counter: RequestCounter,
  base: string,
  path: string,
  init: { method?: string; body?: unknown; session?: Session; form?: Record<string, string> } = {},
): Promise<Answer> {
  counter.requests++;
  const headers: Record<string, string> = {};
  if (init.session) {
    headers.authorization = `Bearer ${init.session.jwt}`;
    headers.cookie = `XSRF-TOKEN=${init.session.xsrf}`;
    headers['x-xsrf-token'] = init.session.xsrf;
  }
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    Object.assign(headers, json);
    body = JSON.stringify(init.body);
  }
  try {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // HTML (the sandbox's pages) or an empty body
    }
    return { status: response.status, body: parsed, headers: response.headers };
  } catch {
    return { status: 0, body: {} };
  }
}

/** The newest OTP mailed to `email` after the first `after` mails to it, from the SMTP sink. */
async function otpFrom(mails: ReceivedMail[], email: string, after: number): Promise<string | undefined> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const mine = mails.filter((mail) => mail.to === email);
    if (mine.length > after) {
      const otp = mine
        .at(-1)!
        .raw.replace(/=\r?\n/g, '')
        .match(/^ {4}(\d{6})\s*$/m)?.[1];
      if (otp) return otp;
    }
    await sleep(100);
  }
  return undefined;
}

/** Proves the e-mail with the mailed OTP (sign-up when `name` is given, else login); undefined when the portal did not answer. */
export async function signIn(
  counter: RequestCounter,
  base: string,
  mails: ReceivedMail[],
  email: string,
  name?: string,
): Promise<Session | undefined> {
  const before = mails.filter((mail) => mail.to === email).length;
  const started = name
    ? await request(counter, base, '/api/user/register', { body: { email_id: email, user_name: name, auth_provider: 'EMAIL_OTP_AUTH' } })
    : await request(counter, base, '/api/user/login', { body: { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' } });
  if (started.status !== 200) return undefined;
  const otp = await otpFrom(mails, email, before);
  if (!otp) return undefined;
  const done = await request(counter, base, '/api/user/authenticate', { body: { email_id: email, otp, user_name: name ?? '' } });
  if (done.status !== 200 || !done.headers) return undefined;
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(done.headers.getSetCookie().join('\n'))?.[1] ?? '';
  return { jwt: done.headers.get('jwt_token') ?? '', xsrf };
}

export async function createSubscription(counter: RequestCounter, base: string, session: Session, name: string) {
  const created = await request(counter, base, '/api/subscription/create', {
    session,
    body: { subscription_name: name, remark: '', subscription_type: 'PREPAID' },
  });
  return created.status === 200 ? String(created.body.subscription_id) : undefined;
}

/** Deploys a cluster in the subscription (a free CIDR, the default version); true when the portal accepted it. */
export async function createCluster(counter: RequestCounter, base: string, session: Session, subscriptionId: string, name: string) {
  const cidr = await request(counter, base, '/api/cluster/cidr?deploymentRegion=us-east-1&enableDrFlag=false&cloudProvider=AWS', {
    session,
  });
  const versions = await request(counter, base, '/api/cluster/kumo-versions', { session });
  const offered = (versions.body.kumo_versions ?? []) as { version: string; default: boolean }[];
  const version = offered.find((candidate) => candidate.default)?.version;
  if (cidr.status !== 200 || !version) return false;
  const created = await request(counter, base, '/api/cluster/create', {
    session,
    body: {
      subscription_id: subscriptionId,
      cluster_name: name,
      description: '',
      cloud_provider: 'AWS',
      enable_dr_flag: false,
      cidr: cidr.body.cidr,
      region: 'us-east-1',
      backup_region: null,
      password: CLUSTER_PASSWORD,
      kumo_version: version,
    },
  });
  return created.status === 200;
}

export interface ConfirmedTopUp {
  checkoutSessionId: string;
  subscriptionId: string;
  cents: number;
}

/**
 * One sandbox card top-up as the browser makes it: purchase, pay on the hosted page, then the confirming
 * step (`payment-status`). Resolves with the top-up only when that step answered 200 SUCCESSFUL; the
 * status of the first step that failed otherwise.
 */
export async function topUp(
  counter: RequestCounter,
  base: string,
  session: Session,
  subscriptionId: string,
  cents: number,
): Promise<ConfirmedTopUp | { failedStatus: number }> {
  const purchase = await request(counter, base, '/api/credit/purchase', {
    session,
    body: {
      amount: cents / 100,
      event_name: 'ADD_FUNDS',
      remark: '',
      iso_currency_code: 'USD',
      subscription_id: subscriptionId,
      category: 'PURCHASED',
    },
  });
  if (purchase.status !== 200) return { failedStatus: purchase.status };
  const checkout = new URL(String(purchase.body.redirect_url));
  const checkoutSessionId = checkout.pathname.split('/').at(-1)!;
  const paid = await request(counter, base, checkout.pathname, {
    form: { action: 'pay', cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace' },
  });
  if (paid.status !== 303) return { failedStatus: paid.status };
  const status = await request(
    counter,
    base,
    `/api/credit/payment-status/${subscriptionId}?session_id=${encodeURIComponent(checkoutSessionId)}`,
    { session },
  );
  if (status.status !== 200) return { failedStatus: status.status };
  if (status.body.transaction_status !== 'SUCCESSFUL') return { failedStatus: -1 };
  return { checkoutSessionId, subscriptionId, cents };
}
