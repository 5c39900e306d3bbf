// The schemas of money in and out of the API, apart from money.ts's values so that a screen using only those does not
// load zod.
import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { MAX_PURCHASE_CENTS, MIN_PURCHASE_CENTS, readAmount } from './money.js';

/** An amount on its way into the API: a number or decimal text, at least $1 and at most $999,999, as cents. */
export const purchaseAmountSchema = z
  .union([z.number(), z.string().max(32)], { error: MESSAGES.addFundsMinimum })
  .transform((value, ctx) => {
    const parsed = readAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.reason === 'too-many-decimals' ? MESSAGES.amountDecimals : MESSAGES.addFundsMinimum });
      return z.NEVER;
    }
    if (parsed.cents < MIN_PURCHASE_CENTS) ctx.addIssue({ code: 'custom', message: MESSAGES.addFundsMinimum });
    else if (parsed.cents > MAX_PURCHASE_CENTS) ctx.addIssue({ code: 'custom', message: MESSAGES.addFundsMaximum });
    return parsed.cents;
  });

/** Money leaving the API: dollars as a JSON number with at most two decimals (made from cents by centsToAmount). */
export const moneySchema = z.number().describe('US dollars, at most two decimals');
