import { Text } from '@mantine/core';
import { dayLabel } from './months';

/** Said above daily tables that start later than the month: the days before had no usage. */
export function NoUsageBefore({ day }: { day: string | null }) {
  if (!day) return null;
  return (
    <Text fz="sm" c="dimmed">
      No usage before {dayLabel(day)}.
    </Text>
  );
}
