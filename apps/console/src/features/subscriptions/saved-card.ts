import type { SavedCard } from '@kumo/contract';

const BRAND_NAMES: Record<string, string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
};

/** "Visa •••• 4242, expires 04/2030": the provider names brands in lower case ("visa", "amex"). */
export function describeCard(card: SavedCard): string {
  const brand = BRAND_NAMES[card.brand.toLowerCase()] ?? card.brand.charAt(0).toUpperCase() + card.brand.slice(1);
  return `${brand} •••• ${card.last4}, expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}
