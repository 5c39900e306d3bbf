import { Box, Group } from '@mantine/core';

const LEVELS = 5;

/** Query-engine capacity as five bars, that many lit (spec section 4: zero 0, low 1, moderate 3, high 4, full 5). */
export function CapacityBars({ capacity, size = 'md' }: { capacity: number; size?: 'sm' | 'md' }) {
  const lit = Math.max(0, Math.min(LEVELS, Math.round(capacity)));
  const height = size === 'sm' ? 12 : 16;
  return (
    <Group gap={3} wrap="nowrap" align="flex-end" role="img" aria-label={`Capacity ${lit} of ${LEVELS}`} data-capacity={lit}>
      {Array.from({ length: LEVELS }, (_, index) => (
        <Box
          key={index}
          w={size === 'sm' ? 5 : 6}
          h={height * (0.55 + (0.45 * (index + 1)) / LEVELS)}
          style={{
            borderRadius: 2,
            backgroundColor: index < lit ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-gray-3)',
          }}
        />
      ))}
    </Group>
  );
}
