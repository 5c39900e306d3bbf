import type { LightMyRequestResponse } from 'fastify';
import { SANDBOX_EVENTS_QUEUE } from '../../src/adapters/payments/sandbox/sandbox-gateway.js';
import { get, post, send, signUp, type TestContext } from './harness.js';
import { drainJobs } from './money.js';

export const TEST_CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
} as const;

/** Creates a subscription through the API and returns its id. */
export async function createSubscription(ctx: TestContext, jwt: string, name: string, remark = ''): Promise<string> {
  const response = await post(ctx, '/api/subscription/create', { subscription_name: name, remark, subscription_type: 'PREPAID' }, jwt);
  if (response.statusCode !== 200) throw new Error(`create failed: ${response.body}`);
  return String(response.json().subscription_id);
}

/** Opens a checkout for the amount; returns the hosted page's path and the session id. */
export async function openCheckout(ctx: TestContext, jwt: string, subscriptionId: string, amount: number | string, remark = '') {
  const response = await post(
    ctx,
    '/api/credit/purchase',
    { amount, event_name: 'ADD_FUNDS', remark, iso_currency_code: 'USD', subscription_id: subscriptionId, category: 'PURCHASED' },
    jwt,
  );
  if (response.statusCode !== 200) throw new Error(`purchase failed: ${response.body}`);
  const url = new URL(String(response.json().redirect_url));
  return { url, path: url.pathname, sessionId: url.pathname.split('/').at(-1)! };
}

/** Submits the sandbox's card form as the browser does. */
export function submitCard(ctx: TestContext, path: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: path,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export const payWith = (ctx: TestContext, path: string, cardNumber: string) =>
  submitCard(ctx, path, { action: 'pay', cardNumber, expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace' });

/** The confirmation the console asks for when the browser comes back. */
export const paymentStatus = (ctx: TestContext, jwt: string, subscriptionId: string, sessionId: string) =>
  get(ctx, `/api/credit/payment-status/${subscriptionId}?session_id=${encodeURIComponent(sessionId)}`, jwt);

export const cancelPurchase = (ctx: TestContext, jwt: string, purchaseId: string) =>
  send(ctx, 'POST', `/api/credit/purchase/${purchaseId}/cancel`, undefined, jwt);

/** Delivers the sandbox's queued notifications, as the job workers would. */
export const deliverSandboxEvents = (ctx: TestContext) =>
  drainJobs(ctx, SANDBOX_EVENTS_QUEUE, (data) => ctx.services.billing.syncCheckout(String(data.session_id)));

export async function balanceOf(ctx: TestContext, jwt: string, subscriptionId: string): Promise<number> {
  const response = await get(ctx, `/api/subscription/details?subscription_id=${subscriptionId}`, jwt);
  return Number(response.json().total_amount);
}

/** A page of the history: the ledger's entries (`content`) and the checkouts not paid; `query` adds e.g. a kind. */
export async function history(ctx: TestContext, jwt: string, subscriptionId: string, page = 0, query: Record<string, string> = {}) {
  const search = new URLSearchParams({ page: String(page), size: '20', ...query });
  const response = await get(ctx, `/api/credit/view/credit-transactions/${subscriptionId}?${search.toString()}`, jwt);
  return response.json<{ content: Record<string, unknown>[]; totalPages: number; unpaid_checkouts: Record<string, unknown>[] }>();
}

let customers = 0;

/** A signed-up owner (a fresh e-mail starting with `prefix`) and the first subscription of the account, named `name`. */
export async function customerWithSubscription(ctx: TestContext, prefix: string, name = 'Analytics') {
  const { jwt } = await signUp(ctx, `${prefix}${++customers}.${Date.now()}@example.com`, 'Ada Lovelace');
  return { jwt, subscriptionId: await createSubscription(ctx, jwt, name) };
}
