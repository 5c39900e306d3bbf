/** The demo account's owner signs in by OTP from the dev mailbox and makes personal API tokens, as in the console. */
import { sleep } from './portal.js';

export const OWNER = 'owner@demo.kumo.cloud';
const JSON_HEADERS = { 'content-type': 'application/json' };

export interface Session {
  jwt: string;
  xsrf: string;
}

export async function signIn(base: string, email = OWNER): Promise<Session> {
  const mailbox = async () => (await (await fetch(`${base}/dev/mailbox.json`)).json()) as { to: string; text: string }[];
  const before = (await mailbox()).length;
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ email_id: email, auth_provider: 'EMAIL_OTP_AUTH' }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  for (let attempt = 0; attempt < 100; attempt++) {
    const mails = await mailbox();
    const otp = mails
      .slice(0, mails.length - before)
      .find((mail) => mail.to === email)
      ?.text.match(/^ {4}(\d{6})\s*$/m)?.[1];
    if (otp) {
      const done = await fetch(`${base}/api/user/authenticate`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ email_id: email, otp, user_name: '' }),
      });
      if (done.status !== 200) throw new Error(`authenticate: ${done.status} ${await done.text()}`);
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(done.headers.getSetCookie().join('\n'))?.[1] ?? '';
      return { jwt: done.headers.get('jwt_token') ?? '', xsrf };
    }
    await sleep(100);
  }
  throw new Error('no OTP in the dev mailbox');
}

/** A POST as the signed-in person (bearer token and the XSRF pair); throws with the answer unless it is 200. */
async function postAsPerson(base: string, session: Session, path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      ...JSON_HEADERS,
      authorization: `Bearer ${session.jwt}`,
      cookie: `XSRF-TOKEN=${session.xsrf}`,
      'x-xsrf-token': session.xsrf,
    },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** POST /api/user/api-tokens as the signed-in person: the secret, shown once. */
export async function createToken(base: string, session: Session, name: string, scope: 'READ' | 'WRITE'): Promise<string> {
  const response = await postAsPerson(base, session, '/api/user/api-tokens', { name, scope, expires_in_days: 7, allowed_ips: [] });
  return ((await response.json()) as { token: string }).token;
}

/** POST /api/account/webhooks as the signed-in person (a token may only list them). */
export async function createWebhook(base: string, session: Session, url: string): Promise<void> {
  await postAsPerson(base, session, '/api/account/webhooks', { url, events: ['cluster.status_changed'] });
}

/** A call with a token, as a script would make it: the JSON the command line should print. */
export async function withToken<T>(base: string, token: string, path: string): Promise<T> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
