import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';

/** The sign-in screens' e-mail input; React 19 passes react-hook-form's ref through props. */
export function EmailField(props: TextInputProps & { ref?: Ref<HTMLInputElement> }) {
  return <TextInput label="Email" type="email" autoComplete="email" placeholder="you@company.com" size="md" {...props} />;
}
