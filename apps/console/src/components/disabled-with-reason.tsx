import { useId, type ReactElement } from 'react';
import { Tooltip, VisuallyHidden } from '@mantine/core';

/** What a control that cannot be used now carries: it stays in the tab order and names its reason. */
export interface DisabledProps {
  'aria-disabled': true;
  'aria-describedby': string;
}

/**
 * A control that cannot be used now but stays reachable by keyboard: its reason shows in a tooltip on hover, touch
 * and keyboard focus, and is read out with it. The control itself must ignore clicks (aria-disabled, not disabled).
 */
export function DisabledWithReason({ reason, children }: { reason: string; children: (props: DisabledProps) => ReactElement }) {
  const id = useId();
  return (
    <>
      <Tooltip label={reason} events={{ hover: true, focus: true, touch: true }} openDelay={100} multiline maw={300} withinPortal>
        {children({ 'aria-disabled': true, 'aria-describedby': id })}
      </Tooltip>
      <VisuallyHidden id={id}>{reason}</VisuallyHidden>
    </>
  );
}
