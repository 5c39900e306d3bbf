import { METERING_MESSAGES } from '@kumo/contract';
import { ErrorAlert } from '../error-alert';

/** Costs that could not be loaded: the spec's sentence, with the server's reason under it. */
export function CostLoadError({ error }: { error: unknown }) {
  return <ErrorAlert title={METERING_MESSAGES.costLoadFailed} error={error} />;
}
