/** The sandbox's test cards and the checks a hosted page makes before it tries a card. */
import { MESSAGES } from '@kumo/contract';

export interface SandboxCard {
  brand: string;
  label: string;
  /** Refused at once, on the page. */
  decline?: string;
  /** Saved fine, but refused when charged with nobody present, as Stripe's test cards 4000000000000341 and 4000002760003184. */
  offSession?: { outcome: 'DECLINED' | 'AUTHENTICATION_REQUIRED'; message: string };
}

/** The sandbox's test cards, numbered as Stripe's so the same cards work on both. */
export const SANDBOX_CARDS: Record<string, SandboxCard> = {
  '4242424242424242': { brand: 'visa', label: 'Payment succeeds' },
  '4000000000000341': {
    brand: 'visa',
    label: 'Saves; declined when charged later',
    offSession: { outcome: 'DECLINED', message: MESSAGES.cardDeclined },
  },
  '4000002760003184': {
    brand: 'visa',
    label: 'Saves; needs authentication when charged later',
    offSession: { outcome: 'AUTHENTICATION_REQUIRED', message: 'Your card was declined. This transaction requires authentication.' },
  },
  '4000000000000002': { brand: 'visa', decline: MESSAGES.cardDeclined, label: 'Card declined' },
  '4000000000009995': { brand: 'visa', decline: 'Your card has insufficient funds.', label: 'Insufficient funds' },
  '4000000000000069': { brand: 'visa', decline: 'Your card has expired.', label: 'Expired card' },
};
export const NOT_A_TEST_CARD = 'Your card was declined. This sandbox accepts only its test cards.';

export interface CardForm {
  cardNumber?: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Checks the card fields the way a hosted checkout does before it tries to charge. */
export function validateCard(form: CardForm, now: Date): { errors: Partial<Record<keyof CardForm, string>>; number: string } {
  const errors: Partial<Record<keyof CardForm, string>> = {};
  const number = (form.cardNumber ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) errors.cardNumber = 'Your card number is invalid.';
  const expiry = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec((form.expiry ?? '').trim());
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12) {
    errors.expiry = "Your card's expiration date is incomplete.";
  } else {
    const year = 2000 + Number(expiry[2]);
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (year * 12 + (month - 1) < current) errors.expiry = "Your card's expiration year is in the past.";
  }
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) errors.cvc = "Your card's security code is incomplete.";
  return { errors, number };
}
