import { DEFAULT_THEME, luminance, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, negativeAmountColors, theme } from './theme';

const contrast = (a: string, b: string) => {
  const [dim, bright] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
  return (bright + 0.05) / (dim + 0.05);
};

describe('the red of a negative amount', () => {
  it('keeps 4.5:1 on the light surfaces (white, the page, a hovered row) and on the dark ones (dark-5 to dark-8)', () => {
    const { colors } = mergeMantineTheme(DEFAULT_THEME, theme);
    const { light, dark } = negativeAmountColors(colors);
    for (const surface of ['#ffffff', colors.gray[0], colors.gray[1]]) expect(contrast(light, surface)).toBeGreaterThanOrEqual(4.5);
    for (const surface of [colors.dark[5], colors.dark[6], colors.dark[7], colors.dark[8]])
      expect(contrast(dark, surface)).toBeGreaterThanOrEqual(4.5);
    const variables = cssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme));
    expect(variables.light['--kumo-color-negative']).toBe(light);
    expect(variables.dark['--kumo-color-negative']).toBe(dark);
  });
});
