import { Group, Text } from '@mantine/core';
import { PRODUCT } from '@kumo/contract';

export function AppFooter() {
  return (
    <Group component="footer" justify="space-between" gap="xs" py="md" c="dimmed" fz="xs">
      <Text inherit>
        © {new Date().getFullYear()} {PRODUCT.vendor} All rights reserved.
      </Text>
      <Text inherit>Version {PRODUCT.version}</Text>
    </Group>
  );
}
