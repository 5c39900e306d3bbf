import { get, post, send, type TestContext } from './harness.js';
import { openCheckout, paymentStatus } from './checkout.js';
import { CUSTOMER_AREA, OWNERS_ACCOUNT, type EndpointCase, type Fixture } from './access-matrix.js';

/**
 * The rows of the routes that came with spend control and the platform calls (budgets, automatic top-up, notices,
 * API tokens, webhooks, exports, statements), and of the money and session calls the first rows left out.
 */

/** Every person of an account reads their own notices, cluster members too; staff have no account there. */
const ANY_PERSON_OF_AN_ACCOUNT = { owner: 200, admin: 200, member: 200, otherOwner: 200, anonymous: 401, default: 403 };
/** One person's own thing (an API token): nobody else of the account finds it. */
const OWNERS_OWN = { ...OWNERS_ACCOUNT, admin: 404 };

let counter = 0;

/** A new subscription of the owner's account (deleting uses one up). */
async function freshSubscription(ctx: TestContext, f: Fixture): Promise<string> {
  const body = { subscription_name: `Matrix spare ${++counter}`, remark: '', subscription_type: 'PREPAID' };
  return (await post(ctx, '/api/subscription/create', body, f.ownerJwt)).json().subscription_id;
}

/** The transaction of a new checkout the owner opened and left pending (cancelling uses one up). */
async function freshPendingPurchase(ctx: TestContext, f: Fixture): Promise<string> {
  const { sessionId } = await openCheckout(ctx, f.ownerJwt, f.subscriptionId, 20);
  return (await paymentStatus(ctx, f.ownerJwt, f.subscriptionId, sessionId)).json().transaction_id;
}

const apiTokenBody = () => ({ name: `Matrix ${++counter}`, scope: 'READ', expires_in_days: 7, allowed_ips: [] });

async function freshApiToken(ctx: TestContext, f: Fixture): Promise<string> {
  return (await post(ctx, '/api/user/api-tokens', apiTokenBody(), f.ownerJwt)).json().token_id;
}

export const matrixWebhookBody = () => ({ url: `http://127.0.0.1:9/matrix/${++counter}`, events: ['cluster.status_changed'] });

async function freshWebhook(ctx: TestContext, f: Fixture): Promise<string> {
  return (await post(ctx, '/api/account/webhooks', matrixWebhookBody(), f.ownerJwt)).json().webhook_id;
}

const budget = (f: Fixture) => `/api/subscription/${f.subscriptionId}/budget`;
const autoTopUp = (f: Fixture) => `/api/subscription/${f.subscriptionId}/auto-top-up`;
const paymentMethod = (f: Fixture) => `/api/subscription/${f.subscriptionId}/payment-method`;

export const PLATFORM_ENDPOINTS: EndpointCase[] = [
  {
    route: 'GET /api/saas-common/help-document-links',
    call: (ctx, t) => get(ctx, '/api/saas-common/help-document-links', t?.jwt),
    expected: { default: 200 },
  },
  {
    route: 'POST /api/user/switch-user/end',
    target: 'no customer view to end',
    call: (ctx, t) => send(ctx, 'POST', '/api/user/switch-user/end', undefined, t?.jwt),
    expected: { anonymous: 401, default: 403 },
  },
  {
    route: 'GET /api/account/audit-logs/export',
    call: (ctx, t) => get(ctx, '/api/account/audit-logs/export?startDate=2026-03-01&format=json', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'DELETE /api/subscription/delete/{id}',
    target: "a new subscription of the owner's",
    call: async (ctx, t, f) => send(ctx, 'DELETE', `/api/subscription/delete/${await freshSubscription(ctx, f)}`, undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/credit/payment-status/{id}',
    target: "the owner's pending checkout",
    call: (ctx, t, f) => get(ctx, `/api/credit/payment-status/${f.subscriptionId}?session_id=${f.pendingSessionId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/credit/purchase/{id}/cancel',
    target: "a new pending checkout of the owner's",
    call: async (ctx, t, f) => send(ctx, 'POST', `/api/credit/purchase/${await freshPendingPurchase(ctx, f)}/cancel`, undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/credit/cancel/{id}',
    target: "a new pending checkout of the owner's",
    call: async (ctx, t, f) => send(ctx, 'POST', `/api/credit/cancel/${await freshPendingPurchase(ctx, f)}`, undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/credit/subscription/{id}',
    target: "the receipt of the owner's paid checkout",
    call: (ctx, t, f) => get(ctx, `/api/credit/subscription/${f.paidTransactionId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/statement/{subscriptionId}',
    target: "the owner's subscription, JSON",
    call: (ctx, t, f) => get(ctx, `/api/subscription/statement/${f.subscriptionId}?month=2026-03&format=json`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/statement/{subscriptionId}',
    target: "the owner's subscription, PDF",
    call: (ctx, t, f) => get(ctx, `/api/subscription/statement/${f.subscriptionId}?month=2026-03&format=pdf`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/consumption/export/{subscriptionId}',
    target: "the owner's subscription, a range by the hour",
    call: (ctx, t, f) =>
      get(
        ctx,
        `/api/subscription/consumption/export/${f.subscriptionId}?from=2026-03-01&to=2026-03-10&granularity=HOUR&format=json`,
        t?.jwt,
      ),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/{subscriptionId}/budget',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, budget(f), t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'PUT /api/subscription/{subscriptionId}/budget',
    target: "the owner's subscription",
    call: (ctx, t, f) => send(ctx, 'PUT', budget(f), { monthly_amount: 500 }, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'DELETE /api/subscription/{subscriptionId}/budget',
    target: "the owner's subscription",
    call: (ctx, t, f) => send(ctx, 'DELETE', budget(f), undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/{subscriptionId}/auto-top-up',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, autoTopUp(f), t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    // Off: turning it on needs a saved card, which no caller here has.
    route: 'PUT /api/subscription/{subscriptionId}/auto-top-up',
    target: "the owner's subscription, off",
    call: (ctx, t, f) =>
      send(ctx, 'PUT', autoTopUp(f), { enabled: false, threshold_amount: 50, top_up_amount: 100, monthly_cap: 300 }, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/subscription/{subscriptionId}/payment-method',
    target: "the owner's subscription",
    call: (ctx, t, f) => send(ctx, 'POST', paymentMethod(f), undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'DELETE /api/subscription/{subscriptionId}/payment-method',
    target: "the owner's subscription",
    call: (ctx, t, f) => send(ctx, 'DELETE', paymentMethod(f), undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/user/notifications',
    call: (ctx, t) => get(ctx, '/api/user/notifications?page=0&size=20', t?.jwt),
    expected: ANY_PERSON_OF_AN_ACCOUNT,
  },
  {
    route: 'POST /api/user/notifications/read',
    call: (ctx, t) => post(ctx, '/api/user/notifications/read', { all: true }, t?.jwt),
    expected: ANY_PERSON_OF_AN_ACCOUNT,
  },
  {
    route: 'POST /api/user/api-tokens',
    call: (ctx, t) => post(ctx, '/api/user/api-tokens', apiTokenBody(), t?.jwt),
    expected: CUSTOMER_AREA,
  },
  { route: 'GET /api/user/api-tokens', call: (ctx, t) => get(ctx, '/api/user/api-tokens', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'DELETE /api/user/api-tokens/{tokenId}',
    target: "a new token of the owner's",
    call: async (ctx, t, f) => send(ctx, 'DELETE', `/api/user/api-tokens/${await freshApiToken(ctx, f)}`, undefined, t?.jwt),
    expected: OWNERS_OWN,
  },
  {
    route: 'POST /api/account/webhooks',
    call: (ctx, t) => post(ctx, '/api/account/webhooks', matrixWebhookBody(), t?.jwt),
    expected: CUSTOMER_AREA,
  },
  { route: 'GET /api/account/webhooks', call: (ctx, t) => get(ctx, '/api/account/webhooks', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'DELETE /api/account/webhooks/{webhookId}',
    target: "a new webhook of the owner's account",
    call: async (ctx, t, f) => {
      const webhook = `/api/account/webhooks/${await freshWebhook(ctx, f)}`;
      const response = await send(ctx, 'DELETE', webhook, undefined, t?.jwt);
      // An account holds a few webhooks at most: the owner removes what a refused caller left, so the next one fits.
      if (response.statusCode !== 200) await send(ctx, 'DELETE', webhook, undefined, f.ownerJwt);
      return response;
    },
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/account/webhooks/{webhookId}/test',
    target: "the owner's webhook",
    call: (ctx, t, f) => send(ctx, 'POST', `/api/account/webhooks/${f.webhookId}/test`, undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
];
