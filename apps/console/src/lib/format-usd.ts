// Apart from format.ts (dayjs) so the sign-in screen can show the sign-up credit without loading dayjs.
import { groupedDecimal } from './decimal-text';

/** US dollars, two decimals by default; negatives as -$ (amounts may arrive as exact decimal strings). */
export function formatUsd(amount: number | string, fractionDigits = 2): string {
  const formatted = `$${groupedDecimal(amount, fractionDigits)}`;
  // Compare the rounded text, so -0.001 does not show as -$0.00.
  const isNegative = Number(amount) < 0 && /[1-9]/.test(formatted);
  return isNegative ? `-${formatted}` : formatted;
}
