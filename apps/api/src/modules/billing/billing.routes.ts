import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HEADERS,
  MESSAGES,
  errorResponseSchema,
  paymentStatusQuerySchema,
  paymentStatusSchema,
  purchaseIdParamsSchema,
  purchaseRequestSchema,
  purchaseResponseSchema,
  statementQuerySchema,
  statementSchema,
  subscriptionIdParamsSchema,
  transactionIdParamsSchema,
  transactionPageSchema,
  transactionQuerySchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import type { BillingService } from './billing.service.js';
import { toStatementWire, toTransactionPageWire } from './presentation.js';
import { renderStatementPdf } from './statement-pdf.js';
import { idempotent } from '../../http/idempotency.js';

const routes = routeDeclarations('Funds');
const errors = errorResponses(400, 401, 403, 404, 409, 422, 503);
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export function billingRoutes(billing: BillingService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routes.behind(requireAccountAdmin(verify));

    app.post('/api/credit/purchase', {
      config: idempotent,
      ...customer({
        summary: 'Open a card checkout at the payment provider; the browser goes to redirect_url',
        body: purchaseRequestSchema,
        response: { 200: purchaseResponseSchema, ...errors },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        return billing.purchase(caller.accountId, caller.userId, request.body);
      },
    });

    app.get('/api/credit/payment-status/:id', {
      ...customer({
        summary: 'Confirm a checkout on return from the provider (id = subscription id)',
        params: subscriptionIdParamsSchema,
        querystring: paymentStatusQuerySchema,
        response: { 200: paymentStatusSchema, ...errors },
      }),
      handler: async (request) => billing.paymentStatus(accountCallerOf(request).accountId, request.params.id, request.query.session_id),
    });

    app.post('/api/credit/purchase/:id/cancel', {
      ...customer({
        summary: "Close a checkout the customer left through the provider's cancel link",
        params: purchaseIdParamsSchema,
        response: { 200: paymentStatusSchema, ...errors },
      }),
      handler: async (request) => billing.cancelPurchase(accountCallerOf(request).accountId, request.params.id),
    });

    app.post('/api/credit/cancel/:id', {
      ...customer({
        summary: 'Cancel a pending checkout from its row in the history (id = transaction id); only a pending one',
        params: purchaseIdParamsSchema,
        response: { 200: paymentStatusSchema, ...errors },
      }),
      handler: async (request) => billing.cancelPending(accountCallerOf(request).accountId, request.params.id),
    });

    app.get('/api/credit/view/credit-transactions/:id', {
      ...customer({
        summary:
          "A page of the subscription's ledger entries, newest first, each with the balance after it, of one kind when asked; and its checkouts not paid (id = subscription id)",
        params: subscriptionIdParamsSchema,
        querystring: transactionQuerySchema,
        response: { 200: transactionPageSchema, ...errors },
      }),
      handler: async (request) => {
        const { page, size, kind } = request.query;
        return toTransactionPageWire(await billing.transactions(accountCallerOf(request).accountId, request.params.id, page, size, kind));
      },
    });

    app.get('/api/credit/subscription/:id', {
      ...customer({
        summary: 'The PDF receipt of a successful card purchase (id = transaction id)',
        params: transactionIdParamsSchema,
        produces: ['application/pdf', 'application/json'],
        // The PDF's 200 is documented in http/openapi-parts.ts; a Buffer is sent as it is, never serialised.
        response: { 200: z.unknown(), ...errorResponses(400, 401, 403, 404, 422) },
      }),
      handler: async (request, reply) => {
        const zone = request.headers[HEADERS.userTimeZone];
        const { filename, pdf } = await billing.receipt(
          accountCallerOf(request).accountId,
          request.params.id,
          typeof zone === 'string' ? zone : undefined,
        );
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    });

    app.get('/api/subscription/statement/:subscriptionId', {
      ...customer({
        summary:
          "A month's statement: opening balance, top-ups, staff additions, free credits, usage by cluster and service, closing balance",
        params: z.object({ subscriptionId: z.uuid({ error: MESSAGES.subscriptionNotFound }) }),
        querystring: statementQuerySchema,
        // JSON (the contract's statementSchema, checked on the way out) or a PDF, like the receipt beside it.
        produces: ['application/json', 'application/pdf'],
        // Both bodies are documented in http/openapi-parts.ts; the JSON one is checked by statementSchema below.
        response: { 200: z.unknown(), ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request, reply) => {
        const { month, format } = request.query;
        const statement = await billing.statement(accountCallerOf(request).accountId, request.params.subscriptionId, month);
        if (format === 'json') return reply.type('application/json').send(statementSchema.parse(toStatementWire(statement)));
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="statement-${month}.pdf"`)
          .header('cache-control', 'private, no-store')
          .send(await renderStatementPdf(statement));
      },
    });
  };
}

/** Stripe's webhook: the raw body is kept for the signature check, so it has its own JSON parser. */
export function stripeWebhookRoutes(billing: BillingService) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    app.post('/api/credit/webhook/stripe', {
      // Stripe's servers call this from elsewhere; the signature is the authentication.
      config: { allowCrossSite: true },
      ...routes.open({
        summary: "Stripe's signed checkout notifications",
        response: { 200: z.object({ received: z.boolean() }), 400: errorResponseSchema, 409: errorResponseSchema },
      }),
      handler: async (request) => {
        const signature = request.headers['stripe-signature'];
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        await billing.handleWebhook(body, typeof signature === 'string' ? signature : undefined);
        return { received: true };
      },
    });
  };
}
