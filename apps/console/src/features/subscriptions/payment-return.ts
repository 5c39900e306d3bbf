import { CHECKOUT_RETURN_PARAMS } from '@kumo/contract';

/** What the page was handed by the payment provider's redirect, kept in navigation state once the URL is tidied. */
export type PaymentReturn = { subscriptionId: string; sessionId: string } | { subscriptionId: string; cancelledPurchaseId: string };

export interface PaymentReturnState {
  paymentReturn?: PaymentReturn;
}

/** Reads the provider's return from the query: ?session_id=…&id=… after paying, ?id=…&cancelled_purchase=… after cancelling. */
export function paymentReturnFrom(search: URLSearchParams, routeSubscriptionId?: string): PaymentReturn | undefined {
  const subscriptionId = routeSubscriptionId ?? search.get(CHECKOUT_RETURN_PARAMS.subscriptionId);
  if (!subscriptionId) return undefined;
  const sessionId = search.get(CHECKOUT_RETURN_PARAMS.sessionId);
  if (sessionId) return { subscriptionId, sessionId };
  const cancelledPurchaseId = search.get(CHECKOUT_RETURN_PARAMS.cancelledPurchase);
  if (cancelledPurchaseId) return { subscriptionId, cancelledPurchaseId };
  return undefined;
}
