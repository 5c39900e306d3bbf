import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled value in a details pane; the label names the group for assistive technology and tests. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4} role="group" aria-label={label}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
