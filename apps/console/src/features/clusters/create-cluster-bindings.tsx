import type { ControllerFieldState, ControllerRenderProps, FieldPath } from 'react-hook-form';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { CLUSTER_LIMITS, normalizePasswordInput, type CreateClusterForm } from '@kumo/contract';

export type FormField = FieldPath<CreateClusterForm>;

/** What a Controller hands its input. */
export interface Rendered<N extends FormField> {
  field: ControllerRenderProps<CreateClusterForm, N>;
  fieldState: ControllerFieldState;
}

type FieldProps<N extends FormField> = ControllerRenderProps<CreateClusterForm, N>;

/** What `bound` hands an input. */
export interface BoundProps<N extends FormField> {
  name: FieldProps<N>['name'];
  ref: FieldProps<N>['ref'];
  value: FieldProps<N>['value'];
  onBlur: FieldProps<N>['onBlur'];
  error: string | undefined;
}

/** The wiring every input of the form takes from its field: name, ref, value, blur and the field's error. */
export function bound<N extends FormField>({ field, fieldState }: Rendered<N>): BoundProps<N> {
  return { name: field.name, ref: field.ref, value: field.value, onBlur: field.onBlur, error: fieldState.error?.message };
}

/** A required pick from a list: empty shows the placeholder, and the list opens in a portal. */
export function boundSelect<N extends 'selectedSubscription' | 'region' | 'kumo_version'>(
  rendered: Rendered<N>,
): Omit<BoundProps<N>, 'value'> & {
  value: string | null;
  onChange: (value: string | null) => void;
  allowDeselect: boolean;
  comboboxProps: { withinPortal: boolean };
} {
  const { field } = rendered;
  return {
    ...bound(rendered),
    value: field.value || null,
    onChange: (value: string | null) => field.onChange(value ?? ''),
    allowDeselect: false,
    comboboxProps: { withinPortal: true },
  };
}

/** A required new password, kept to the characters and length a cluster password may have. */
export function NewPasswordInput({ onValue, ...props }: Omit<PasswordInputProps, 'onChange'> & { onValue: (value: string) => void }) {
  return (
    <PasswordInput
      required
      autoComplete="new-password"
      maxLength={CLUSTER_LIMITS.passwordMaxLength}
      onChange={(event) => onValue(normalizePasswordInput(event.currentTarget.value))}
      {...props}
    />
  );
}
