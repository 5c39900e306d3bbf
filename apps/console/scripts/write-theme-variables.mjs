// Writes src/app/theme-variables.css: the theme's CSS variables as Mantine's provider would write them at every start
// (src/app/theme-css.ts). Run after a change to the theme (theme.test.ts fails until then):
//   npx tsx apps/console/scripts/write-theme-variables.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { themeVariablesCss } from '../src/app/theme-css.ts';

writeFileSync(fileURLToPath(new URL('../src/app/theme-variables.css', import.meta.url)), themeVariablesCss());
