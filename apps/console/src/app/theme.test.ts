import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';
import { themeVariablesCss } from './theme-css';
import { contrast, deriveThemeVariables, negativeAmountColors } from './theme-contrast';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const themeVariablesFile = readFileSync(join(__dirname, 'theme-variables.css'), 'utf8');

describe('the red of a negative amount', () => {
  it('keeps 4.5:1 on the light surfaces (white, the page, a hovered row) and on the dark ones (dark-5 to dark-8)', () => {
    const { colors } = resolved;
    const { light, dark } = negativeAmountColors(colors);
    for (const surface of ['#ffffff', colors.gray[0], colors.gray[1]]) expect(contrast(light, surface)).toBeGreaterThanOrEqual(4.5);
    for (const surface of [colors.dark[5], colors.dark[6], colors.dark[7], colors.dark[8]])
      expect(contrast(dark, surface)).toBeGreaterThanOrEqual(4.5);
    const variables = deriveThemeVariables(resolved);
    expect(variables.light['--kumo-color-negative']).toBe(light);
    expect(variables.dark['--kumo-color-negative']).toBe(dark);
  });
});

describe('the theme variables written at build time', () => {
  it('are the ones Mantine writes for the theme (npx tsx apps/console/scripts/write-theme-variables.mjs writes them again)', () => {
    expect(themeVariablesFile).toBe(themeVariablesCss());
    expect(themeVariablesFile).toContain(`--kumo-color-negative: ${negativeAmountColors(resolved.colors).light}`);
  });

  it('make white text on every filled colour AA in both schemes', () => {
    const { light, dark } = deriveThemeVariables(resolved);
    const filled = [...Object.entries(light), ...Object.entries(dark)].filter(([name]) => name.endsWith('-filled'));
    expect(filled.length).toBeGreaterThan(20);
    for (const [name, color] of filled) expect(contrast(color, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
  });
});
