/**
 * The payment provider port: a hosted card checkout the browser is sent to, and the provider's word
 * on how it ended, read back on the customer's return or pushed by a signed webhook. Two drivers:
 * Stripe (Checkout Sessions) when configured, and the sandbox checkout served by the portal itself.
 */
export interface PaymentGateway {
  readonly kind: 'stripe' | 'sandbox';
  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** The session as the provider sees it now. */
  retrieveCheckout(sessionId: string): Promise<CheckoutState>;
  /** Closes an unpaid session (the customer went back); a session already paid stays paid. */
  expireCheckout(sessionId: string): Promise<CheckoutState>;
  /**
   * Verifies a webhook delivery on its raw body and reads it; null for events that say nothing about
   * a checkout. Throws WebhookSignatureError for a missing, wrong or too old signature.
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): CheckoutState | SetupEvent | null;
  /** Opens a hosted page that saves a card for later charges (Stripe Checkout in setup mode). */
  createSetup(request: SetupRequest): Promise<{ sessionId: string; url: string; customerId: string }>;
  /** The card-saving session as the provider sees it now. */
  retrieveSetup(sessionId: string): Promise<SetupState>;
  /**
   * Charges a saved card with nobody present (off-session). A refusal is an answer, and so is a charge still
   * processing (its payment intent is then asked about with findSavedCharge); a provider out of reach throws
   * PaymentGatewayError. Calling again with the same idempotency key answers the first charge, but only for a day:
   * Stripe forgets a key after 24 hours, so a charge that old is looked up, never made again.
   */
  chargeSaved(request: SavedCardCharge): Promise<SavedCardChargeResult>;
  /**
   * How a charge made earlier stands now, charging nothing: by its payment intent when one was returned, otherwise
   * found by its idempotency key; null when the provider has no such charge.
   */
  findSavedCharge(charge: SavedCardLookup): Promise<SavedCardChargeResult | null>;
}

export interface SetupRequest {
  subscriptionId: string;
  /** The provider's customer of the subscription when it has one; a new one is made otherwise. */
  customerId: string | null;
  customerEmail: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
}

export interface SavedCardDetails {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface SetupState {
  sessionId: string;
  subscriptionId: string;
  customerId: string;
  /** Set once the customer saved a card. */
  card: SavedCardDetails | null;
}

/** A webhook about a card being saved for a subscription: a nudge to read its setup session back. */
export interface SetupEvent {
  kind: 'setup';
  subscriptionId: string;
}

export interface SavedCardCharge {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  currency: string;
  description: string;
  /** Sent as the provider's Idempotency-Key: a repeated call answers the first charge. */
  idempotencyKey: string;
  subscriptionId: string;
}

export interface SavedCardLookup {
  paymentIntentId: string | null;
  idempotencyKey: string;
  paymentMethodId: string;
}

/** PROCESSING: the provider took the charge but has not said how it ends. */
export type SavedCardChargeResult =
  | { outcome: 'SUCCEEDED'; paymentIntentId: string }
  | { outcome: 'PROCESSING'; paymentIntentId: string }
  | { outcome: 'DECLINED' | 'AUTHENTICATION_REQUIRED'; paymentIntentId: string | null; message: string };

export interface CheckoutRequest {
  /** Our purchase id: the provider hands it back with every update (client_reference_id and metadata). */
  purchaseId: string;
  subscriptionId: string;
  amountCents: number;
  currency: string;
  description: string;
  customerEmail: string;
  /** May contain {CHECKOUT_SESSION_ID}, replaced by the provider. */
  successUrl: string;
  cancelUrl: string;
}

/**
 * How a checkout stands: OPEN (not paid yet, maybe after a declined card), PROCESSING (paid by a method
 * that settles later), PAID, FAILED (a payment attempt was refused) or EXPIRED (closed unpaid).
 */
export type CheckoutOutcome = 'OPEN' | 'PROCESSING' | 'PAID' | 'FAILED' | 'EXPIRED';

export interface CheckoutState {
  purchaseId: string;
  /** Absent for events about the payment rather than the session (a declined card). */
  sessionId?: string;
  outcome: CheckoutOutcome;
  amountCents?: number;
  currency?: string;
  failureMessage?: string;
  /** e.g. "Visa •••• 4242", when the provider tells. */
  paymentMethod?: string;
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export class PaymentGatewayError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PaymentGatewayError';
  }
}

/** "Visa •••• 4242" from a card's brand and last digits. */
export function describeCard(brand: string | null | undefined, last4: string | null | undefined): string | undefined {
  if (!last4) return undefined;
  const name = brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : 'Card';
  return `${name} •••• ${last4}`;
}
