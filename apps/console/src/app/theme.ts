import { DEFAULT_THEME, createTheme, type MantineColorsTuple } from '@mantine/core';
import type { CSSProperties } from 'react';
import { UI_TIMING } from '@kumo/contract';

const fontStack = 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

const withShade = (colors: MantineColorsTuple, shade: number, value: string) =>
  colors.map((color, index) => (index === shade ? value : color)) as unknown as MantineColorsTuple;

// WCAG 2.2 AA asks 4.5:1 for small text. Mantine's gray-6 (#868e96, the light "dimmed" text) reaches only
// 3.3:1 on white and 3.2:1 on the gray-0 page; #646c74 reaches 5.3:1 and 5.1:1. Its dark-2 (#828282,
// the dark "dimmed" text) reaches 4.0:1 on dark-7; #a0a0a0 reaches 5.9:1 there and 5.2:1 on dark-6.
const gray = withShade(DEFAULT_THEME.colors.gray, 6, '#646c74');
const dark = withShade(DEFAULT_THEME.colors.dark, 2, '#a0a0a0');

export const theme = createTheme({
  primaryColor: 'indigo',
  // White on indigo-6 (#4c6ef5) is 4.3:1, on indigo-7 5.0:1; indigo-7 is also the link colour on white.
  // In the dark scheme, filled buttons use indigo-8 (white on it 5.7:1) and links indigo-3 (below).
  primaryShade: { light: 7, dark: 8 },
  colors: { gray, dark },
  fontFamily: fontStack,
  headings: { fontFamily: fontStack, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Tooltip: { defaultProps: { openDelay: UI_TIMING.tooltipEnterDelayMs, withArrow: true } },
    Card: { defaultProps: { withBorder: true, radius: 'lg', padding: 'lg' } },
    Button: { defaultProps: { radius: 'md' } },
    // A table scrolls sideways with the browser's own scrolling: Mantine's ScrollArea measures its scrollbars in a
    // resize observer's animation frame, a forced style and layout of the whole page per table on a phone's first
    // screen. It must be reachable by keyboard to be scrolled (axe: scrollable-region-focusable).
    TableScrollContainer: { defaultProps: { type: 'native', tabIndex: 0 } },
    // A close button shows only an ×: screen readers need its name. A modal's title bar is a <header>, which
    // outside a landmark reads as a second banner: it stays a plain box.
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' }, attributes: { header: { role: 'presentation' } } },
    },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // Mantine puts a focusable placeholder (role="presentation", tabindex) first in every menu, which a menu may
    // not hold (axe: aria-required-children); without it, opening a menu focuses its first item, as ARIA's menu pattern asks.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A loader is a status, so the name it is given ("Loading the cluster") is allowed on it and read out (axe:
    // aria-prohibited-attr forbids a name on a plain <span>).
    Loader: { defaultProps: { role: 'status' } },
    // The selected link's description is drawn at 90% opacity, which takes its text under 4.5:1.
    NavLink: { styles: { description: { '--description-opacity': 1 } as CSSProperties } },
  },
});
