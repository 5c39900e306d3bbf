import { Text, type TextProps } from '@mantine/core';
import { formatUsd } from '../lib/format-usd';

/** The colour of an amount below zero, AA in both schemes (the theme sets `--kumo-color-negative`). */
export const NEGATIVE_AMOUNT_COLOR = 'var(--kumo-color-negative)';

export interface AmountProps extends Omit<TextProps, 'c' | 'children'> {
  /** US dollars, as a number or an exact decimal string. */
  value: number | string;
}

/**
 * A dollar amount, in red when it shows below zero (an amount that rounds to -$0.00 shows as $0.00, uncoloured).
 * Every negative balance or transaction is drawn through it, so they all share the one red.
 */
export function Amount({ value, ...props }: AmountProps) {
  const text = formatUsd(value);
  return (
    <Text c={text.startsWith('-') ? NEGATIVE_AMOUNT_COLOR : undefined} {...props}>
      {text}
    </Text>
  );
}
