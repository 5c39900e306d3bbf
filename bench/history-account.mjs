// The account the Lighthouse part signs in as: a customer with months behind it, as the console's screens meet them.
// The portal is started with the demo tool (DEV_TOOLS=…,demo), which writes the demo customer's last three months
// through the modules' own services on a clock set back in time: card top-ups on two subscriptions, a cluster that
// runs and one that runs in bursts, metering charged every midnight, members, an invitation and the audit log that
// all of it leaves. The bench adds 48 clusters through the API as the console does, 24 on each of its two
// subscriptions, funded by card, so the account has 50 clusters on two subscriptions, online, with its history.
import { ADD_FUNDS } from '@kumo/contract';
import { payAtSandbox, postJson, sleep } from './portal.mjs';

export const HISTORY_CUSTOMER = 'owner@demo.kumo.cloud';
const CLUSTERS_PER_SUBSCRIPTION = 24;
const CLUSTERS_IN_ALL = 50;

/** Signs the demo customer in by OTP from the dev mailbox: { token, xsrf, refreshToken }. */
export async function signInWithHistory(base) {
  const email = HISTORY_CUSTOMER;
  const mailbox = async () => (await (await fetch(`${base}/dev/mailbox.json`)).json()).filter((mail) => mail.to === email);
  // The mailbox lists the newest first; the OTP is in a mail that was not there before the login.
  const before = new Set((await mailbox()).map((mail) => mail.id));
  await postJson(base, '/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' });
  for (let i = 0; i < 50; i++) {
    const mail = (await mailbox()).find((each) => !before.has(each.id));
    const otp = mail?.text.match(/^ {4}(\d{6})\s*$/m)?.[1];
    if (otp) {
      const done = await postJson(base, '/api/user/authenticate', { email_id: email, otp });
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(done.headers.get('set-cookie') ?? '')?.[1];
      return { token: done.headers.get('jwt_token'), xsrf, refreshToken: done.headers.get('refresh_token') };
    }
    await sleep(100);
  }
  throw new Error(`no OTP for ${email} in the dev mailbox`);
}

/** The largest top-up by card on a subscription, paid at the sandbox and confirmed. */
async function topUp(api, subscriptionId) {
  const { redirect_url } = await api.post('/api/credit/purchase', { amount: ADD_FUNDS.maxDollars, subscription_id: subscriptionId });
  await payAtSandbox(redirect_url);
  const sessionId = new URL(redirect_url).pathname.split('/').at(-1);
  const status = await api.get(`/api/credit/payment-status/${subscriptionId}?session_id=${encodeURIComponent(sessionId)}`);
  if (status.transaction_status !== 'SUCCESSFUL') throw new Error(`history account top-up: ${status.transaction_status}`);
}

/** Adds the bench's clusters to the history account's two subscriptions and waits for all 50 to be online. */
export async function clustersOnHistory(api) {
  const subscriptions = await api.get('/api/subscription/list');
  if (subscriptions.length !== 2) throw new Error(`the history account has ${subscriptions.length} subscriptions, not 2`);
  for (const [s, subscription] of subscriptions.entries()) {
    await topUp(api, subscription.subscription_id);
    for (let i = 0; i < CLUSTERS_PER_SUBSCRIPTION; i++) {
      await api.post('/api/cluster/create', {
        subscription_id: subscription.subscription_id,
        cluster_name: `Bench_${s}_${i}`,
        description: '',
        cloud_provider: 'AWS',
        enable_dr_flag: false,
        cidr: `10.${100 + s * CLUSTERS_PER_SUBSCRIPTION + i}.0.0/16`,
        region: 'us-east-1',
        backup_region: null,
        password: 'Bench#Passw0rd',
        kumo_version: '2026.10.1',
      });
    }
  }
  for (let i = 0; i < 480; i++) {
    const clusters = (await api.get('/api/cluster/view')).flatMap((group) => group.clusters);
    const busy = clusters.filter((cluster) => !['ONLINE', 'OFFLINE'].includes(cluster.status));
    if (clusters.length === CLUSTERS_IN_ALL && busy.length === 0) return;
    await sleep(250);
  }
  throw new Error(`the history account's ${CLUSTERS_IN_ALL} clusters did not settle`);
}
