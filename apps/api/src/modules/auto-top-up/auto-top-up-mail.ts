/** What automatic top-up tells the owner: a top-up landed, one failed and paused it, or the monthly cap stopped one. */
import { formatUsdCents } from '@kumo/contract';

export interface TopUpMail {
  subject: string;
  lines: string[];
}

export function succeededMail(name: string, amountCents: number, card: string, receiptId: string): TopUpMail {
  return {
    subject: `${name}: automatic top-up of ${formatUsdCents(amountCents)} added`,
    lines: [
      `The balance of ${name} fell below its threshold, so ${formatUsdCents(amountCents)} was charged to ${card} and added to it.`,
      `Receipt ${receiptId} is in the subscription's transaction history.`,
    ],
  };
}

export function failedMail(name: string, amountCents: number, message: string, link: string): TopUpMail {
  return {
    subject: `${name}: automatic top-up failed and is paused`,
    lines: [
      `An automatic top-up of ${formatUsdCents(amountCents)} for ${name} could not be charged: ${message}`,
      'Automatic top-up is paused and will not try again by itself. Add funds by hand, or save a card or the settings again to resume it:',
      link,
    ],
  };
}

export function capMail(name: string, capCents: number, link: string): TopUpMail {
  return {
    subject: `${name}: automatic top-up reached its monthly cap`,
    lines: [
      `The balance of ${name} is below its threshold, but another top-up would take this month's top-ups over the monthly cap of ${formatUsdCents(capCents)}, so none was charged.`,
      'Nothing more is charged automatically this month unless the cap is raised. Add funds by hand here:',
      link,
    ],
  };
}
