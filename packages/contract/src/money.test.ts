import { describe, expect, it } from 'vitest';
import { ADMIN_FUND_CATEGORIES, receiptAction } from './billing.js';
import { MESSAGES } from './messages.js';
import {
  addFundsAmountError,
  amountToCents,
  amountInWords,
  centsToAmount,
  centsToDecimalText,
  formatUsdCents,
  normalizeAmountInput,
  parseAmountToCents,
  readAmount,
} from './money.js';
import { purchaseAmountSchema } from './money-schemas.js';
import { firstError } from './validation.js';
import { normalizeSubscriptionNameInput, remainingCharacters, subscriptionNameSchema } from './subscriptions.js';

describe('exact amounts', () => {
  it.each([
    ['1234', 123_400],
    ['1234.5', 123_450],
    ['0.07', 7],
    ['12.', 1_200],
    [' 42.10 ', 4_210],
    [1234.56, 123_456],
    [0.29, 29],
    [999_999.99, 99_999_999],
  ])('reads %j as %i cents', (input, cents) => {
    expect(parseAmountToCents(input)).toBe(cents);
  });

  it.each(['', 'abc', '-5', '+5', '1e3', '1,000', '12.3.4', '.', Infinity, Number.NaN, -1])('refuses %j', (input) => {
    expect(parseAmountToCents(input)).toBeNull();
  });

  it('refuses more than two decimals, including a float that is not what it looks like', () => {
    expect(readAmount('12.345')).toEqual({ ok: false, reason: 'too-many-decimals' });
    expect(readAmount(0.1 + 0.2)).toEqual({ ok: false, reason: 'too-many-decimals' });
  });

  it('prints cents back exactly', () => {
    expect(centsToAmount(123_456)).toBe(1234.56);
    expect(JSON.stringify(centsToAmount(29))).toBe('0.29');
    expect(centsToDecimalText(-123_456)).toBe('-1234.56');
    expect(centsToDecimalText(5)).toBe('0.05');
    expect(formatUsdCents(123_400)).toBe('$1,234.00');
    expect(formatUsdCents(-5)).toBe('-$0.05');
    expect(formatUsdCents(99_999_900)).toBe('$999,999.00');
    expect(amountToCents(-12.5)).toBe(-1250);
    expect(amountToCents(1734.05)).toBe(173_405);
    expect(() => amountToCents(0.123)).toThrow(RangeError);
  });
});

describe('the add-funds amount rule (spec section 5)', () => {
  it.each([
    ['', MESSAGES.addFundsMinimum],
    ['0', MESSAGES.addFundsMinimum],
    ['0.99', MESSAGES.addFundsMinimum],
    ['abc', MESSAGES.addFundsMinimum],
    ['1,000,000', MESSAGES.addFundsMaximum],
    ['999999.01', MESSAGES.addFundsMaximum],
    ['9,999,999', MESSAGES.addFundsMaximum],
  ])('%j gives %j', (raw, message) => {
    expect(addFundsAmountError(raw)).toBe(message);
  });

  it.each(['1', '1,234', '999,999', '10.5', '0001'])('%j can be paid', (raw) => {
    expect(addFundsAmountError(raw)).toBeUndefined();
  });

  it('drops thousands separators as they are typed', () => {
    expect(normalizeAmountInput('1,234', '')).toBe('1234');
  });

  it('keeps what is typed below 10,000,000 and ignores keystrokes beyond it', () => {
    expect(normalizeAmountInput('9999999', '999999')).toBe('9999999');
    expect(normalizeAmountInput('10000000', '1000000')).toBe('1000000');
  });

  it('ignores a third decimal but keeps text that is not a number, for the message to explain', () => {
    expect(normalizeAmountInput('12.345', '12.34')).toBe('12.34');
    expect(normalizeAmountInput('12.', '12')).toBe('12.');
    expect(normalizeAmountInput('12a', '12')).toBe('12a');
  });

  it('says the amount in words with its currency', () => {
    expect(amountInWords(123_400)).toBe('One Thousand Two Hundred Thirty Four USD');
    expect(amountInWords(99_999_900)).toBe('Nine Hundred Ninety Nine Thousand Nine Hundred Ninety Nine USD');
    expect(amountInWords(1_005)).toBe('Ten USD and Five Cents');
    expect(amountInWords(101)).toBe('One USD and One Cent');
    expect(amountInWords(0)).toBe('Zero USD');
    expect(amountInWords(700_001_200)).toBe('Seven Million Twelve USD');
  });

  it('gives the API the same messages, and cents', () => {
    expect(purchaseAmountSchema.parse('1234.5')).toBe(123_450);
    expect(firstError(purchaseAmountSchema, 0)).toBe(MESSAGES.addFundsMinimum);
    expect(firstError(purchaseAmountSchema, 1_000_000)).toBe(MESSAGES.addFundsMaximum);
    expect(firstError(purchaseAmountSchema, '1.234')).toBe(MESSAGES.amountDecimals);
    expect(firstError(purchaseAmountSchema, { amount: 1 })).toBe(MESSAGES.addFundsMinimum);
  });
});

describe('subscription names (spec section 5)', () => {
  it('requires a name', () => {
    expect(firstError(subscriptionNameSchema, '')).toBe(MESSAGES.subscriptionNameRequired);
    expect(firstError(subscriptionNameSchema, undefined)).toBe(MESSAGES.subscriptionNameRequired);
  });
  it.each(['ab', '12abc', 'a-bc', 'abc#', 'x'.repeat(51)])('refuses %j', (name) => {
    expect(firstError(subscriptionNameSchema, name)).toBe(MESSAGES.subscriptionNameFormat);
  });
  it.each(['abc', 'Analytics 2026', 'team_a-b c', 'A'.repeat(50)])('accepts %j', (name) => {
    expect(firstError(subscriptionNameSchema, name)).toBeUndefined();
  });
  it('keeps typing within 50 characters without leading spaces', () => {
    expect(normalizeSubscriptionNameInput('   abc')).toBe('abc');
    expect(normalizeSubscriptionNameInput('a'.repeat(60))).toHaveLength(50);
  });
  it('counts the remaining remark characters', () => {
    expect(remainingCharacters('')).toBe('200 characters remaining');
    expect(remainingCharacters('x'.repeat(199))).toBe('1 character remaining');
  });
});

describe('receipt menu', () => {
  it('downloads card purchases, warns on funds staff added, and offers nothing on other rows or unsuccessful ones (decision 0007)', () => {
    expect(receiptAction({ category: 'PURCHASED', transaction_status: 'SUCCESSFUL' })).toBe('download');
    for (const category of ADMIN_FUND_CATEGORIES) {
      expect(receiptAction({ category, transaction_status: 'SUCCESSFUL' }), category).toBe('admin-warning');
    }
    for (const category of ['FREE_CREDITS', 'USAGE', 'CREDITS_EXPIRED', 'REFUND', 'TRANSFER_IN', 'TRANSFER_OUT'] as const) {
      expect(receiptAction({ category, transaction_status: 'SUCCESSFUL' }), category).toBeNull();
    }
    expect(receiptAction({ category: 'PURCHASED', transaction_status: 'FAILED' })).toBeNull();
    expect(receiptAction({ category: 'PURCHASED', transaction_status: 'PAYMENT_INTENT_CREATED' })).toBeNull();
  });
});
