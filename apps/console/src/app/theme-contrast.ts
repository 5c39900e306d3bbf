// How the theme's colours are made AA (WCAG 2.2, 4.5:1 for small text). Run when the console is built
// (scripts/write-theme-variables.mjs writes theme-variables.css), not in the browser: the loops are a long task on a phone.
import {
  darken,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineTheme,
  type MantineThemeColors,
} from '@mantine/core';

export const contrast = (a: string, b: string) => {
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
 * The theme's CSS variables beside Mantine's own, by colour scheme (Mantine's cssVariablesResolver): the colours above
 * made AA, and the surfaces the pages paint themselves: use `var(--kumo-color-page)` for a page or panel background and
 * `var(--kumo-color-border)` for a hairline instead of a fixed gray, so the dark scheme follows.
 */
export const deriveThemeVariables = (resolved: MantineTheme): ReturnType<CSSVariablesResolver> => ({
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
