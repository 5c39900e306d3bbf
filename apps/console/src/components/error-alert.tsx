import type { ReactNode } from 'react';
import { Alert, type AlertProps } from '@mantine/core';
import { errorMessage } from '../lib/api-error';

type ErrorAlertProps = Pick<AlertProps, 'title' | 'm' | 'mt' | 'mb' | 'mx' | 'my'> &
  ({ error: unknown; children?: undefined } | { error?: undefined; children: ReactNode });

/**
 * A request that failed inside a dialog or a page section, said where it failed: the error's message (the
 * contract's text the API answered with) or a text of the caller's. Field errors go under their field through
 * the form instead; the result of a background action is a notification (`notify.ts`).
 */
export function ErrorAlert({ error, children, ...spacing }: ErrorAlertProps) {
  return (
    <Alert color="red" variant="light" role="alert" {...spacing}>
      {children ?? errorMessage(error)}
    </Alert>
  );
}
