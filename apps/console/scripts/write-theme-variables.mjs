// Writes src/app/theme-variables.ts: the theme's CSS variables, derived by src/app/theme-contrast.ts. Run after a
// change to the theme's colours (theme.test.ts fails until then): npx tsx apps/console/scripts/write-theme-variables.mjs
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { deriveThemeVariables } from '../src/app/theme-contrast.ts';
import { theme } from '../src/app/theme.ts';

const target = fileURLToPath(new URL('../src/app/theme-variables.ts', import.meta.url));
const variables = deriveThemeVariables(mergeMantineTheme(DEFAULT_THEME, theme));
writeFileSync(
  target,
  `// Written by scripts/write-theme-variables.mjs from theme-contrast.ts; theme.test.ts checks it is current.\n` +
    `import type { CSSVariablesResolver } from '@mantine/core';\n\n` +
    `export const THEME_VARIABLES: ReturnType<CSSVariablesResolver> = ${JSON.stringify(variables, null, 2)};\n`,
);
execFileSync('npx', ['prettier', '--write', target], { stdio: 'inherit' });
