import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHECKOUT_CSS, checkoutPage, closedPage } from './sandbox-page.js';
import type { SandboxCheckout } from './sandbox-gateway.js';
import type { SandboxSessionRow } from './sandbox.repository.js';

const params = z.object({ sessionId: z.string().max(100) });
const formBody = z.object({
  action: z.enum(['pay', 'cancel']),
  cardNumber: z.string().max(40).optional(),
  expiry: z.string().max(10).optional(),
  cvc: z.string().max(8).optional(),
  name: z.string().max(100).optional(),
});

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The page's own policy: no script at all, its stylesheet, and form posts to itself and back to the portal. */
function sendPage(reply: FastifyReply, status: number, html: string, session?: SandboxSessionRow): FastifyReply {
  const returnOrigins = session ? [originOf(session.successUrl), originOf(session.cancelUrl)].filter(Boolean) : [];
  const formAction = ["'self'", ...new Set(returnOrigins)].join(' ');
  return (
    reply
      .status(status)
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'self'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      )
      .header('cache-control', 'no-store')
      // With no-referrer a browser sends "Origin: null" on the form post, which the cross-site guard refuses.
      .header('referrer-policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(html)
  );
}

const notFoundPage = () => closedPage('Checkout not found', 'This checkout session does not exist.');

/** The sandbox provider's hosted checkout: server-rendered HTML and CSS, plain form posts, redirects back to the portal. */
export function sandboxCheckoutRoutes(sandbox: SandboxCheckout) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    // Plain HTML forms post url-encoded bodies; this parser exists only inside the sandbox's routes.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    app.get('/sandbox/checkout.css', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CHECKOUT_CSS),
    );

    app.get('/sandbox/checkout/:sessionId', { schema: { hide: true, params } }, async (request, reply) => {
      const session = await sandbox.view(request.params.sessionId);
      if (!session) return sendPage(reply, 404, notFoundPage());
      if (session.status === 'complete') {
        const done =
          session.mode === 'setup'
            ? closedPage('Card saved', 'This card has been saved.')
            : closedPage('Payment complete', 'This checkout has been paid.');
        return sendPage(reply, 200, done, session);
      }
      if (session.status === 'expired') {
        return sendPage(
          reply,
          200,
          closedPage('Checkout closed', 'This checkout was cancelled or has expired.', {
            href: session.cancelUrl,
            label: 'Return to Kumo Cloud',
          }),
          session,
        );
      }
      return sendPage(reply, 200, checkoutPage(session), session);
    });

    app.post('/sandbox/checkout/:sessionId', { schema: { hide: true, params, body: formBody } }, async (request, reply) => {
      const { sessionId } = request.params;
      if (request.body.action === 'cancel') {
        const back = await sandbox.cancel(sessionId);
        return back ? reply.redirect(back, 303) : sendPage(reply, 404, notFoundPage());
      }
      const values = { cardNumber: request.body.cardNumber, expiry: request.body.expiry, cvc: request.body.cvc, name: request.body.name };
      const result = await sandbox.pay(sessionId, values);
      if (!result) return sendPage(reply, 404, notFoundPage());
      switch (result.kind) {
        case 'redirect':
          return reply.redirect(result.url, 303);
        case 'invalid':
          return sendPage(reply, 422, checkoutPage(result.session, { values, errors: result.errors, declined: '' }), result.session);
        case 'declined':
          // The card number is kept so another test card is one edit away; the security code is not.
          return sendPage(
            reply,
            402,
            checkoutPage(result.session, { values: { ...values, cvc: '' }, declined: result.message }),
            result.session,
          );
      }
    });
  };
}
