import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { ADD_FUNDS, amountInWords, normalizeAmountInput, parseAmountToCents } from '@kumo/contract';
import { MoneyInput } from './money-input';

interface AmountFieldProps<T extends FieldValues, Output extends FieldValues> {
  /** The form's control; what the form's resolver gives on submit (Output) may differ from what is typed. */
  control: Control<T, unknown, Output>;
  name: Path<T>;
  /** Shown under the field while no amount is typed; the amount in words replaces it. */
  hint?: string;
  /** The field's label; Add Funds' by default. */
  label?: string;
}

/**
 * An amount in dollars (Add Funds', a budget's, auto top-up's): a keystroke past two decimals or the typing ceiling is
 * ignored, anything else (a sign, a letter) stays for the contract's message; the amount in words.
 */
export function AmountField<T extends FieldValues, Output extends FieldValues = T>({
  control,
  name,
  hint,
  label = `Amount (${ADD_FUNDS.currency})`,
}: AmountFieldProps<T, Output>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const typed = String(field.value ?? '');
        const cents = parseAmountToCents(typed.endsWith('.') ? typed.slice(0, -1) : typed);
        return (
          <MoneyInput
            dollars
            label={label}
            required
            data-autofocus
            name={field.name}
            ref={field.ref}
            value={typed}
            onValueChange={(text) => field.onChange(normalizeAmountInput(text, typed))}
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
