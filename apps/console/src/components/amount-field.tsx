import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { Text, TextInput } from '@mantine/core';
import { ADD_FUNDS, amountInWords, normalizeAmountInput, parseAmountToCents } from '@kumo/contract';

interface AmountFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: Path<T>;
  /** Shown under the field while no amount is typed; the amount in words replaces it. */
  hint?: string;
}

/** The Add Funds amount in dollars: typing kept to an amount's shape, the contract's message, the amount in words. */
export function AmountField<T extends FieldValues>({ control, name, hint }: AmountFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const typed = String(field.value ?? '');
        const cents = parseAmountToCents(typed.endsWith('.') ? typed.slice(0, -1) : typed);
        return (
          <TextInput
            label={`Amount (${ADD_FUNDS.currency})`}
            inputMode="decimal"
            autoComplete="off"
            required
            data-autofocus
            leftSection={<Text fz="sm">$</Text>}
            name={field.name}
            ref={field.ref}
            value={typed}
            onChange={(event) => field.onChange(normalizeAmountInput(event.currentTarget.value, typed))}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            description={cents !== null && cents > 0 ? amountInWords(cents) : hint}
            inputWrapperOrder={['label', 'input', 'error', 'description']}
          />
        );
      }}
    />
  );
}
