import {
  DEFAULT_THEME,
  createTheme,
  darken,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeColors,
} from '@mantine/core';
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
    // A table that scrolls sideways must be reachable by keyboard to be scrolled (axe: scrollable-region-focusable).
    TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
    // A close button shows only an ×: screen readers need its name. A modal's title bar is a <header>, which
    // outside a landmark reads as a second banner: it stays a plain box.
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' }, attributes: { header: { role: 'presentation' } } },
    },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // Mantine puts a focusable placeholder (role="presentation", tabindex) first in every menu, which a menu may
    // not hold (axe: aria-required-children); without it, opening a menu focuses its first item, as ARIA's menu pattern asks.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // The selected link's description is drawn at 90% opacity, which takes its text under 4.5:1.
    NavLink: { styles: { description: { '--description-opacity': 1 } as CSSProperties } },
  },
});

const contrast = (a: string, b: string) => {
  const [dim, bright] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
  return (bright + 0.05) / (dim + 0.05);
};

/** `color`, darkened in 5% steps until it reaches AA (4.5:1, with a margin) against `against`. */
export function darkenToContrast(color: string, against: string): string {
  for (let amount = 0; amount <= 1; amount += 0.05) {
    const candidate = amount === 0 ? color : darken(color, amount);
    if (contrast(candidate, against) >= 4.6) return candidate;
  }
  return '#000';
}

/**
 * Per palette colour, the variant colours Mantine derives, made AA by darkening where they fall short: in the
 * light scheme a "light" badge or alert (shade 9 on shade 1, hovered on shade 2: teal 4.3:1, green 3.8:1) and
 * white on a "filled" button (teal-7 3.1:1, red-7 3.8:1); in the dark scheme white on a filled button.
 * Applies to every colour, so a component added later is covered too.
 */
function variantColors(colors: Record<string, MantineColorsTuple>, scheme: 'light' | 'dark'): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    if (name === 'dark' || name === 'gray') continue;
    const filled = darkenToContrast(shades[scheme === 'light' ? 7 : 8], '#ffffff');
    variables[`--mantine-color-${name}-filled`] = filled;
    variables[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.1);
    if (scheme === 'light') {
      variables[`--mantine-color-${name}-light-color`] = darkenToContrast(shades[9], shades[2]);
      variables[`--mantine-color-${name}-text`] = darkenToContrast(shades[7], '#f8f9fa');
    }
  }
  return variables;
}

/**
 * The red of a negative amount (see `Amount`), by colour scheme. Mantine's red-7 (#f03e3e) reaches only 3.8:1 on
 * white and 3.5:1 on the dark surfaces; darkened until it keeps 4.5:1 on the hovered table row (gray-1) in the
 * light scheme, and red-4 in the dark one (5:1 and more on dark-5 to dark-7).
 */
export const negativeAmountColors = (colors: MantineThemeColors) => ({
  light: darkenToContrast(colors.red[7], colors.gray[1]),
  dark: colors.red[4],
});

/**
 * Surfaces the pages paint themselves, by colour scheme: use `var(--kumo-color-page)` for a page or panel
 * background and `var(--kumo-color-border)` for a hairline instead of a fixed gray, so the dark scheme follows.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    ...variantColors(resolved.colors, 'light'),
    // Field errors (red-6 by default) reach only 3.3:1 on white.
    '--mantine-color-error': darkenToContrast(resolved.colors.red[7], '#ffffff'),
    '--kumo-color-negative': negativeAmountColors(resolved.colors).light,
    '--kumo-color-page': resolved.colors.gray[0],
    '--kumo-color-border': resolved.colors.gray[3],
  },
  dark: {
    ...variantColors(resolved.colors, 'dark'),
    '--mantine-color-error': resolved.colors.red[4],
    '--kumo-color-negative': negativeAmountColors(resolved.colors).dark,
    '--kumo-color-page': resolved.colors.dark[8],
    '--kumo-color-border': resolved.colors.dark[4],
    // indigo-4 links reach 4.3:1 on dark-6; indigo-3 reaches 6:1.
    '--mantine-color-anchor': resolved.colors.indigo[3],
  },
});
