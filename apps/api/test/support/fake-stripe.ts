import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import type { Clock } from '../../src/clock.js';
import { createStripeGateway } from '../../src/adapters/payments/stripe-gateway.js';

export const STRIPE_SECRET_KEY = 'sk_test_51KumoCloudTestKey000000000000000000';
export const STRIPE_WEBHOOK_SECRET = 'whsec_kumo_test_signing_secret_0123456789';

type Json = Record<string, unknown>;

/** A Checkout Session recorded from Stripe's test mode (paid with 4242 4242 4242 4242, payment intent expanded). */
export function recordedCompletedSession(): Json {
  return JSON.parse(readFileSync(new URL('../fixtures/stripe/checkout-session-completed.json', import.meta.url), 'utf8')) as Json;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: Headers;
}

/**
 * Stripe's HTTP API as far as the portal uses it, answered from the recorded session: no network.
 * Sessions are kept per id so a test can create, complete, expire and read them back.
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Json>();
  private next = 0;
  /** Makes every call fail as if Stripe could not be reached. */
  offline = false;
  /** Set answers to other calls, by "METHOD /path" (customers, payment intents). */
  readonly replies = new Map<string, { status: number; body: Json }>();

  readonly fetch: typeof fetch = async (input, init) => {
    if (this.offline) throw new TypeError('fetch failed');
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const body = typeof init?.body === 'string' ? init.body : '';
    const request = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(body),
      headers: new Headers(init?.headers),
    };
    this.requests.push(request);
    return this.answer(request);
  };

  gateway(clock: Clock) {
    return createStripeGateway({
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      clock,
      httpClient: Stripe.createFetchHttpClient(this.fetch),
    });
  }

  /** The customer paid on Stripe's page. */
  complete(sessionId: string, overrides: Json = {}): Json {
    const open = this.sessions.get(sessionId)!;
    const recorded = recordedCompletedSession();
    const paymentIntent = {
      ...(recorded.payment_intent as Json),
      metadata: open.metadata,
      amount: open.amount_total,
      amount_received: open.amount_total,
    };
    const completed = {
      ...recorded,
      ...pick(open, [
        'id',
        'client_reference_id',
        'metadata',
        'amount_total',
        'amount_subtotal',
        'success_url',
        'cancel_url',
        'customer_email',
      ]),
      payment_intent: paymentIntent,
      ...overrides,
    };
    this.sessions.set(sessionId, completed);
    return completed;
  }

  /** The session as a webhook carries it: the payment intent is an id, not expanded. */
  webhookObject(sessionId: string): Json {
    const session = this.sessions.get(sessionId)!;
    const intent = session.payment_intent as Json | null;
    return { ...session, payment_intent: intent ? intent.id : null };
  }

  private answer(request: RecordedRequest): Response {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'request-id': `req_${++this.next}` } });
    const reply = this.replies.get(`${request.method} ${request.path}`);
    if (reply) return json(reply.status, reply.body);
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
      const id = `cs_test_kumo${String(++this.next).padStart(6, '0')}`;
      const purchaseId = request.form.get('client_reference_id');
      const amount = Number(request.form.get('line_items[0][price_data][unit_amount]'));
      const session = {
        ...recordedCompletedSession(),
        id,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        client_reference_id: purchaseId,
        metadata: {
          purchase_id: request.form.get('metadata[purchase_id]'),
          subscription_id: request.form.get('metadata[subscription_id]'),
        },
        amount_total: amount,
        amount_subtotal: amount,
        currency: request.form.get('line_items[0][price_data][currency]'),
        success_url: request.form.get('success_url'),
        cancel_url: request.form.get('cancel_url'),
        customer_email: request.form.get('customer_email'),
        url: `https://checkout.stripe.com/c/pay/${id}`,
      };
      this.sessions.set(id, session);
      return json(200, session);
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(request.path);
    if (request.method === 'POST' && expire) {
      const session = this.sessions.get(expire[1]!);
      if (!session)
        return json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } });
      if (session.status !== 'open') {
        return json(400, {
          error: {
            type: 'invalid_request_error',
            message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
          },
        });
      }
      const expired: Json = { ...session, status: 'expired', url: null };
      this.sessions.set(expire[1]!, expired);
      return json(200, expired);
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve) {
      const session = this.sessions.get(retrieve[1]!);
      if (!session)
        return json(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } });
      return json(200, session);
    }
    return json(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${request.path})` },
    });
  }
}

function pick(source: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]));
}

/** A webhook delivery as Stripe sends it: the event JSON and its Stripe-Signature header. */
export function signedEvent(type: string, object: Json, options: { timestamp: number; secret?: string; id?: string }) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${Math.random().toString(36).slice(2, 14)}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.timestamp,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STRIPE_WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
  return { payload, signature };
}
