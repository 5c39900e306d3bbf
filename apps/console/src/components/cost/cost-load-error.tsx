import { Alert } from '@mantine/core';
import { METERING_MESSAGES } from '@kumo/contract';

/** Costs that could not be loaded: the server's message, or the spec's when it gave none. */
export function CostLoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" role="alert">
      {error instanceof Error && error.message ? error.message : METERING_MESSAGES.costLoadFailed}
    </Alert>
  );
}
