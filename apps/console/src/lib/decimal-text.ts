// Numbers as en-US text without Intl: the first Intl formatter a page builds loads the browser's locale data, a long
// task on a slow phone right when the first screen renders. Rounds half away from zero on the shortest decimal
// form of the number, as Intl.NumberFormat does (1.005 → "1.01"), so the text is the same as Intl's.

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** The digits of |value| as [whole, fraction] strings, from its shortest decimal form. */
function decimalDigits(value: number | string): [string, string] {
  let text = typeof value === 'string' ? value.trim().replace(/^[-+]/, '') : String(Math.abs(value));
  // Exponent forms (below 1e-6 or from 1e21) are spelled out: toFixed(20) for the small, BigInt for the large.
  if (!PLAIN_DECIMAL.test(text)) {
    const magnitude = Math.abs(Number(value));
    text = magnitude >= 1e21 ? BigInt(magnitude).toString() : magnitude.toFixed(20);
  }
  const [, whole = '0', fraction = ''] = PLAIN_DECIMAL.exec(text) ?? [];
  return [whole, fraction];
}

/** Adds one to a string of decimal digits. */
function incremented(digits: string): string {
  const chars = digits.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] !== '9') {
      chars[i] = String(Number(chars[i]) + 1);
      return chars.join('');
    }
    chars[i] = '0';
  }
  return `1${chars.join('')}`;
}

/**
 * |value| rounded to at most `maxFractionDigits` decimals (at least `minFractionDigits`, padded with zeros), its whole
 * part grouped by thousands with commas: groupedDecimal(1234.5, 2, 2) → "1,234.50". The sign is the caller's.
 */
export function groupedDecimal(value: number | string, maxFractionDigits: number, minFractionDigits = maxFractionDigits): string {
  if (!Number.isFinite(Number(value))) return Number.isNaN(Number(value)) ? 'NaN' : '∞';
  let [whole, fraction] = decimalDigits(value);
  if (fraction.length > maxFractionDigits) {
    const roundsUp = fraction.charCodeAt(maxFractionDigits) >= 53; // '5'
    const kept = whole + fraction.slice(0, maxFractionDigits);
    const rounded = roundsUp ? incremented(kept).padStart(kept.length, '0') : kept;
    whole = rounded.slice(0, rounded.length - maxFractionDigits) || '0';
    fraction = rounded.slice(rounded.length - maxFractionDigits);
  }
  fraction = fraction.replace(/0+$/, '').padEnd(minFractionDigits, '0');
  whole = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction ? `${whole}.${fraction}` : whole;
}
