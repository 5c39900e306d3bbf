// Apart from format.ts (dayjs) so the sign-in screen can show the sign-up credit without loading dayjs.

const usdFormatters = new Map<number, Intl.NumberFormat>();

function usdFormatter(fractionDigits: number): Intl.NumberFormat {
  let formatter = usdFormatters.get(fractionDigits);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    usdFormatters.set(fractionDigits, formatter);
  }
  return formatter;
}

/** US dollars, two decimals by default; negatives as -$ (amounts may arrive as exact decimal strings). */
export function formatUsd(amount: number | string, fractionDigits = 2): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  const formatted = usdFormatter(fractionDigits).format(Math.abs(value));
  // Compare the rounded text, so -0.001 does not show as -$0.00.
  const isNegative = value < 0 && /[1-9]/.test(formatted);
  return isNegative ? `-${formatted}` : formatted;
}
