import type { ReactNode } from 'react';
import { Button, Tooltip } from '@mantine/core';
import { IconPlus } from './icons';

/** A section's main action, shown where it will live but inactive until the feature ships. */
export function ComingSoonButton({ children }: { children: ReactNode }) {
  return (
    <Tooltip label="Available in an upcoming release">
      <Button leftSection={<IconPlus />} data-disabled aria-disabled="true" onClick={(event) => event.preventDefault()}>
        {children}
      </Button>
    </Tooltip>
  );
}
