import { formatUsd } from '../../lib/format';

/** Money in the cost tables: '--' for nothing (spec section 5), else $ with two decimals. */
export function costCell(amount: number): string {
  return amount === 0 ? '--' : formatUsd(amount);
}

const quantity = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Quantities in the consumption table: '--' for none, else up to two decimals with their unit. */
export function usageCell(value: number, unit?: string): string {
  if (value === 0) return '--';
  return unit ? `${quantity.format(value)} ${unit}` : quantity.format(value);
}
