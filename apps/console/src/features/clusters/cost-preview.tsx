import { Text } from '@mantine/core';
import { costPreviewText } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { useHourlyRatePreview } from './api/hourly-rate';

/**
 * "$X per hour at your rates; your balance covers about N hours", wherever money is about to be spent.
 * Nothing is shown while it loads or when the rate cannot be read: the action itself does not depend on it.
 */
export function CostPreview({ subscriptionId, dr }: { subscriptionId: string | undefined; dr: boolean }) {
  const preview = useHourlyRatePreview(subscriptionId, dr);
  if (!preview.data) return null;
  return (
    <Text fz="sm" fw={500} data-testid="cost-preview">
      {costPreviewText(formatUsd(preview.data.hourly_rate), preview.data.covers_hours)}.
    </Text>
  );
}
