import { render, screen } from '@testing-library/react';
import { DEFAULT_THEME, MantineProvider, luminance, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { negativeAmountColors, theme } from '../app/theme';
import { Amount, NEGATIVE_AMOUNT_COLOR } from './amount';

const contrast = (a: string, b: string) => {
  const [dim, bright] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
  return (bright + 0.05) / (dim + 0.05);
};

describe('Amount', () => {
  it('shows a negative amount in the negative red, a positive one and -$0.00 in the text colour', () => {
    render(
      <>
        <Amount value="-12.5" data-testid="negative" />
        <Amount value={12.5} data-testid="positive" />
        <Amount value="-0.001" data-testid="rounds-to-zero" />
      </>,
      { wrapper: MantineProvider },
    );
    expect(screen.getByTestId('negative')).toHaveTextContent('-$12.50');
    expect(screen.getByTestId('negative').getAttribute('style')).toContain(NEGATIVE_AMOUNT_COLOR);
    expect(screen.getByTestId('positive')).toHaveTextContent('$12.50');
    expect(screen.getByTestId('positive').getAttribute('style') ?? '').not.toContain(NEGATIVE_AMOUNT_COLOR);
    expect(screen.getByTestId('rounds-to-zero')).toHaveTextContent('$0.00');
    expect(screen.getByTestId('rounds-to-zero').getAttribute('style') ?? '').not.toContain(NEGATIVE_AMOUNT_COLOR);
  });

  it('keeps 4.5:1 on the light surfaces (white, the page, a hovered row) and on the dark ones (dark-5 to dark-8)', () => {
    const { colors } = mergeMantineTheme(DEFAULT_THEME, theme);
    const { light, dark } = negativeAmountColors(colors);
    for (const surface of ['#ffffff', colors.gray[0], colors.gray[1]]) expect(contrast(light, surface)).toBeGreaterThanOrEqual(4.5);
    for (const surface of [colors.dark[5], colors.dark[6], colors.dark[7], colors.dark[8]])
      expect(contrast(dark, surface)).toBeGreaterThanOrEqual(4.5);
  });
});
