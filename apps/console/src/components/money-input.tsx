import { Text, TextInput, type TextInputProps } from '@mantine/core';

interface MoneyInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: string;
  /** What was typed, thousands separators and leading spaces dropped. */
  onValueChange: (text: string) => void;
  /** Shows a "$" before the number (amounts); rates and units go without. */
  dollars?: boolean;
}

/**
 * Only digits and a decimal point: the one kind of text a field may turn down as it is typed, when it runs past the
 * field's length (too many digits or decimals).
 */
export const isDigitsAndPoint = (text: string): boolean => /^[\d.]*$/.test(text);

/**
 * Every field where a sum of money (or a rate) is typed. No key is blocked and no character is dropped but thousands
 * separators: a sign, an exponent or a letter stays in the field, so the form's rule says what is wrong and keeps the
 * submit disabled, rather than "-1" quietly becoming "1" or "e5" becoming "5".
 */
export function MoneyInput({ value, onValueChange, dollars = false, ...props }: MoneyInputProps) {
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      leftSection={dollars ? <Text fz="sm">$</Text> : undefined}
      {...props}
      value={value}
      onChange={(event) => onValueChange(event.currentTarget.value.replace(/,/g, '').trimStart())}
    />
  );
}
