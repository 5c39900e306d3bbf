import { useState, type MouseEvent } from 'react';
import { Text, Tooltip, type TextProps } from '@mantine/core';
import { UI_SIZES } from '@kumo/contract';

interface WideTextTooltipProps extends TextProps {
  text: string;
}

/**
 * One line of text, cut with an ellipsis at the threshold width; the full text shows in a tooltip
 * only when the text is at least that wide.
 */
export function WideTextTooltip({ text, ...textProps }: WideTextTooltipProps) {
  const [opened, setOpened] = useState(false);
  // Measured when the pointer arrives rather than when the text mounts: a measure per row as a list mounts forces a
  // layout of the whole screen and a second render of it, a long task on a phone.
  const showWhenCut = (event: MouseEvent<HTMLParagraphElement>) => {
    const node = event.currentTarget;
    // Also when a narrower container cuts it: whatever the ellipsis hides, the tooltip shows.
    setOpened(node.scrollWidth >= UI_SIZES.emailEllipsisThresholdPx || node.scrollWidth > node.clientWidth);
  };

  return (
    <Tooltip label={text} opened={opened} multiline maw={UI_SIZES.emailEllipsisThresholdPx + 40}>
      <Text
        truncate="end"
        maw={UI_SIZES.emailEllipsisThresholdPx}
        onMouseEnter={showWhenCut}
        onMouseLeave={() => setOpened(false)}
        {...textProps}
      >
        {text}
      </Text>
    </Tooltip>
  );
}
