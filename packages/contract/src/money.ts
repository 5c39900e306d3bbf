import { MESSAGES } from './messages.js';

/**
 * Money is held as integer cents everywhere. Amounts arrive as decimal text or as JSON numbers with
 * at most two decimals; both are read digit by digit, never through floating-point arithmetic.
 */
export const CENTS_PER_DOLLAR = 100;

export const ADD_FUNDS = {
  currency: 'USD',
  minDollars: 1,
  maxDollars: 999_999,
  /** The customer's amount field ignores keystrokes that would reach this value (spec section 5). */
  typingCeilingDollars: 10_000_000,
  maxDecimals: 2,
  /** The staff form's starting amount. */
  defaultAdminAmountDollars: 1000,
} as const;

export const MIN_PURCHASE_CENTS = ADD_FUNDS.minDollars * CENTS_PER_DOLLAR;
export const MAX_PURCHASE_CENTS = ADD_FUNDS.maxDollars * CENTS_PER_DOLLAR;

/** Below this balance the portal asks for funds before services can continue (decisions: $100). */
export const MINIMUM_BALANCE_DOLLARS = 100;
export const MINIMUM_BALANCE_CENTS = MINIMUM_BALANCE_DOLLARS * CENTS_PER_DOLLAR;

// Up to 13 integer digits keeps every amount in cents far below Number.MAX_SAFE_INTEGER.
const AMOUNT_TEXT = /^(\d{1,13})(?:\.(\d*))?$/;

export type AmountParse = { ok: true; cents: number } | { ok: false; reason: 'not-a-number' | 'too-many-decimals' };

/** Reads an amount such as "1234.5", 1234.5 or "0.07" into cents; signs, exponents and over two decimals are refused. */
export function readAmount(value: string | number): AmountParse {
  // String() of a finite JSON number gives its shortest exact decimal text (e.g. 0.1 + 0.2 → "0.30000000000000004").
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = AMOUNT_TEXT.exec(text);
  if (!match) return { ok: false, reason: 'not-a-number' };
  const fraction = match[2] ?? '';
  if (fraction.length > ADD_FUNDS.maxDecimals) return { ok: false, reason: 'too-many-decimals' };
  return { ok: true, cents: Number(match[1]) * CENTS_PER_DOLLAR + Number(fraction.padEnd(2, '0')) };
}

export function parseAmountToCents(value: string | number): number | null {
  const parsed = readAmount(value);
  return parsed.ok ? parsed.cents : null;
}

/** A signed amount the API sent (at most two decimals) back into cents, e.g. -12.5 → -1250. */
export function amountToCents(amount: number): number {
  const cents = parseAmountToCents(Math.abs(amount));
  if (cents === null) throw new RangeError(`not an amount of money: ${amount}`);
  return amount < 0 ? -cents : cents;
}

/** Cents as a JSON number of dollars; the division of an integer by 100 prints back as its exact two-decimal text. */
export function centsToAmount(cents: number): number {
  return cents / CENTS_PER_DOLLAR;
}

/** Cents as plain decimal text, e.g. -123456 → "-1234.56". */
export function centsToDecimalText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / CENTS_PER_DOLLAR)}.${String(abs % CENTS_PER_DOLLAR).padStart(2, '0')}`;
}

/** Cents as US dollars for documents and messages: "$1,234.56", negatives "-$1,234.56". */
export function formatUsdCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / CENTS_PER_DOLLAR)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${dollars}.${String(abs % CENTS_PER_DOLLAR).padStart(2, '0')}`;
}

/** The customer's add-funds rule: the message to show for what is typed, or undefined when it can be paid. */
export function addFundsAmountError(raw: string): string | undefined {
  const parsed = readAmount(raw.replace(/,/g, ''));
  if (!parsed.ok) return parsed.reason === 'too-many-decimals' ? MESSAGES.amountDecimals : MESSAGES.addFundsMinimum;
  if (parsed.cents < MIN_PURCHASE_CENTS) return MESSAGES.addFundsMinimum;
  if (parsed.cents > MAX_PURCHASE_CENTS) return MESSAGES.addFundsMaximum;
  return undefined;
}

/**
 * What the amount field keeps of a keystroke: thousands separators are dropped, and a value that would
 * reach 10,000,000 or carry more than two decimals is refused (the previous text stays).
 */
export function normalizeAmountInput(next: string, previous: string): string {
  const text = next.replace(/,/g, '').trimStart();
  const parsed = readAmount(text.endsWith('.') ? text.slice(0, -1) || '0' : text);
  if (!parsed.ok && parsed.reason === 'too-many-decimals') return previous;
  if (parsed.ok && parsed.cents >= ADD_FUNDS.typingCeilingDollars * CENTS_PER_DOLLAR) return previous;
  return text;
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];
const SCALES: [number, string][] = [
  [1_000_000_000_000, 'Trillion'],
  [1_000_000_000, 'Billion'],
  [1_000_000, 'Million'],
  [1_000, 'Thousand'],
];

function belowThousand(n: number): string[] {
  const words: string[] = [];
  if (n >= 100) words.push(ONES[Math.floor(n / 100)]!, 'Hundred');
  const rest = n % 100;
  if (rest >= 20) words.push(TENS[Math.floor(rest / 10)]!, ...(rest % 10 ? [ONES[rest % 10]!] : []));
  else if (rest > 0) words.push(ONES[rest]!);
  return words;
}

/** A whole number in English words: 1234 → "One Thousand Two Hundred Thirty Four". */
export function numberInWords(n: number): string {
  if (n === 0) return 'Zero';
  const words: string[] = [];
  let rest = n;
  for (const [scale, name] of SCALES) {
    if (rest >= scale) {
      words.push(...belowThousand(Math.floor(rest / scale)), name);
      rest %= scale;
    }
  }
  words.push(...belowThousand(rest));
  return words.join(' ');
}

/** An amount in words with its currency: 123450 → "One Thousand Two Hundred Thirty Four USD and Fifty Cents". */
export function amountInWords(cents: number, currency: string = ADD_FUNDS.currency): string {
  const abs = Math.abs(cents);
  const dollars = `${numberInWords(Math.floor(abs / CENTS_PER_DOLLAR))} ${currency}`;
  const fraction = abs % CENTS_PER_DOLLAR;
  return fraction ? `${dollars} and ${numberInWords(fraction)} Cent${fraction === 1 ? '' : 's'}` : dollars;
}
