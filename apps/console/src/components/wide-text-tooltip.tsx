import { useCallback, useState } from 'react';
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
  const [isWide, setIsWide] = useState(false);
  const measure = useCallback((node: HTMLParagraphElement | null) => {
    // Also when a narrower container cuts it: whatever the ellipsis hides, the tooltip shows.
    if (node) setIsWide(node.scrollWidth >= UI_SIZES.emailEllipsisThresholdPx || node.scrollWidth > node.clientWidth);
  }, []);

  return (
    <Tooltip label={text} disabled={!isWide} multiline maw={UI_SIZES.emailEllipsisThresholdPx + 40}>
      <Text ref={measure} truncate="end" maw={UI_SIZES.emailEllipsisThresholdPx} {...textProps}>
        {text}
      </Text>
    </Tooltip>
  );
}
