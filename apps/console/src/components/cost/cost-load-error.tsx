import { METERING_MESSAGES } from '@kumo/contract';
import { ErrorAlert } from '../error-alert';

/** Costs that could not be loaded: the server's message, or the spec's when it gave none. */
export function CostLoadError({ error }: { error: unknown }) {
  return <ErrorAlert>{error instanceof Error && error.message ? error.message : METERING_MESSAGES.costLoadFailed}</ErrorAlert>;
}
