import { useId } from 'react';
import { Group, Text } from '@mantine/core';
import { PRODUCT } from '@kumo/contract';

/** The cloud mark, drawn inline so it needs no image request. */
export function LogoMark({ size = 32 }: { size?: number }) {
  // Each mark needs its own gradient id: a gradient inside a hidden copy would not paint the others.
  const gradientId = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#5c7cfa" />
          <stop offset="1" stopColor="#3b5bdb" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path d="M9 21.5a4.5 4.5 0 0 1 .9-8.9 6.5 6.5 0 0 1 12.4 1.6A3.7 3.7 0 0 1 22 21.5Z" fill="#fff" />
    </svg>
  );
}

export function Logo({ size = 32, inverted = false }: { size?: number; inverted?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text fw={700} fz={size > 30 ? 'lg' : 'md'} c={inverted ? 'white' : undefined} style={{ letterSpacing: -0.2 }}>
        {PRODUCT.shortName}
      </Text>
    </Group>
  );
}
