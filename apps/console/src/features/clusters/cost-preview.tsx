import { Text } from '@mantine/core';
import { costPreviewText, fasterCloudText } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { useHourlyRatePreview, type Shape } from './api/hourly-rate';

/**
 * "$X per hour at your rates; your balance covers about N hours", wherever money is about to be spent, in billable
 * hours; in the demo's faster simulated cloud a quiet line says how much faster its hours pass.
 * Nothing is shown while it loads or when the rate cannot be read: the action itself does not depend on it.
 */
export function CostPreview({ subscriptionId, dr, shape }: { subscriptionId: string | undefined; dr: boolean; shape: Shape }) {
  const preview = useHourlyRatePreview(subscriptionId, dr, shape);
  if (!preview.data) return null;
  const { hourly_rate, covers_hours, time_scale } = preview.data;
  return (
    <>
      <Text fz="sm" fw={500} data-testid="cost-preview">
        {costPreviewText(formatUsd(hourly_rate), covers_hours)}.
      </Text>
      {time_scale > 1 && (
        <Text fz="xs" c="dimmed" data-testid="faster-cloud">
          {fasterCloudText(time_scale)}
        </Text>
      )}
    </>
  );
}
