// The theme's CSS variables as Mantine's provider writes them (MantineCssVariables), rendered once when the console is
// built (scripts/write-theme-variables.mjs writes theme-variables.css) instead of on every start in the browser.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { theme } from './theme';
import { deriveThemeVariables } from './theme-contrast';

/** theme-variables.css as it must read: a note, then the variables of both colour schemes. */
export function themeVariablesCss(): string {
  const markup = renderToString(createElement(MantineProvider, { theme, cssVariablesResolver: deriveThemeVariables }));
  const css = /<style data-mantine-styles="true">([\s\S]*?)<\/style>/.exec(markup)?.[1];
  if (!css) throw new Error("Mantine's provider wrote no CSS variables");
  return `/* Written by scripts/write-theme-variables.mjs from theme.ts and theme-contrast.ts; theme.test.ts checks it is current. */\n${css}\n`;
}
