import { groupedDecimal } from '../../lib/decimal-text';
import { formatUsd } from '../../lib/format';

/** Money in the cost tables: '--' for nothing (spec section 5), else $ with two decimals. */
export function costCell(amount: number): string {
  return amount === 0 ? '--' : formatUsd(amount);
}

/** Quantities in the consumption table: '--' for none, else up to two decimals with their unit. */
export function usageCell(value: number, unit?: string): string {
  if (value === 0) return '--';
  const text = `${value < 0 ? '-' : ''}${groupedDecimal(value, 2, 0)}`;
  return unit ? `${text} ${unit}` : text;
}
