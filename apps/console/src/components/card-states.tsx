import type { ReactNode } from 'react';
import { Center, EmptyState, Loader, type MantineSpacing, type StyleProp } from '@mantine/core';

/**
 * What a card shows while its list loads; the label names what is loading. `mih` reserves the height of what is
 * expected, so what sits below the card does not move when the list arrives.
 */
export function CardLoader({ label, mih }: { label: string; mih?: StyleProp<number | string> }) {
  return (
    <Center py="xl" mih={mih}>
      <Loader size="sm" aria-label={label} />
    </Center>
  );
}

interface CardEmptyStateProps {
  icon: ReactNode;
  title: string;
  description: string;
  py: MantineSpacing;
  /** The way out of the empty state: a button or link. */
  action: ReactNode;
}

/** A card's list when it has nothing yet: what is missing, why it matters, and what to do. */
export function CardEmptyState({ icon, title, description, py, action }: CardEmptyStateProps) {
  return (
    <EmptyState size="sm" variant="light" icon={icon} title={title} description={description} py={py}>
      <EmptyState.Actions>{action}</EmptyState.Actions>
    </EmptyState>
  );
}
