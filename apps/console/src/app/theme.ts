import { createTheme } from '@mantine/core';
import { UI_TIMING } from '@kumo/contract';

const fontStack = 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 6, dark: 5 },
  fontFamily: fontStack,
  headings: { fontFamily: fontStack, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Tooltip: { defaultProps: { openDelay: UI_TIMING.tooltipEnterDelayMs, withArrow: true } },
    Card: { defaultProps: { withBorder: true, radius: 'lg', padding: 'lg' } },
    Button: { defaultProps: { radius: 'md' } },
  },
});
