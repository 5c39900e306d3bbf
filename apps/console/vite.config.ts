import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, parseAst, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
// The API keeps the browser's Host so its same-origin check sees the page's own origin.
const api = { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false, xfwd: true };

/**
 * Marks every top-level constant the contract computes with a call (its schemas: `z.object(…).min(…).transform(…)`)
 * as pure, so a page importing one message of a contract module does not build that module's schemas at load, nor
 * load zod for them. The bundler sees `z.object(…)` as pure but not the chained `.min(…)` on its result. The contract
 * is declarative (constants, schemas, pure helpers), so a constant nobody reads needs no evaluating.
 */
function pureContractConstants(): Plugin {
  // An object or array literal is computed too when it holds schemas: `{ size: sizeSchema.optional() }`.
  const COMPUTED = new Set(['CallExpression', 'ObjectExpression', 'ArrayExpression']);
  const contract = /[\\/]packages[\\/]contract[\\/]src[\\/][^.]+\.ts$/;
  return {
    name: 'kumo-pure-contract-constants',
    enforce: 'pre',
    transform(code, id) {
      if (!contract.test(id)) return null;
      const inits: { start: number; end: number }[] = [];
      for (const statement of parseAst(code, { lang: 'ts' }).body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
        for (const { init } of declaration.declarations) if (init && COMPUTED.has(init.type)) inits.push(init);
      }
      let result = code;
      for (const { start, end } of inits.reverse())
        result = `${result.slice(0, start)}/* @__PURE__ */ (() => (${result.slice(start, end)}))()${result.slice(end)}`;
      return { code: result, map: null };
    },
  };
}

/**
 * Mantine's useId returns React's id, then swaps it for a random one in a layout effect after mount: every component
 * using it (popovers, menus, tooltips, tabs, inputs) renders a second time, synchronously, in the commit that mounted it,
 * a long task on a phone when a page first shows. React's own id is unique and stable, so it is kept as it is.
 */
function stableMantineIds(): Plugin {
  const useIdModule = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;
  return {
    name: 'kumo-stable-mantine-ids',
    load(id) {
      if (!useIdModule.test(id)) return null;
      return [
        "import { useId as useReactId } from 'react';",
        'export function useId(staticId) {',
        '  const reactId = useReactId();',
        "  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/:/g, '')}`;",
        '}',
      ].join('\n');
    },
  };
}

/**
 * Mantine computes its default theme's CSS variables when its module loads, to leave out of the variables it writes
 * those equal to the defaults. The console writes none at run time (app/theme-variables.css is built ahead, and
 * MantineProvider has withCssVariables off), yet the computation ran at every start, a long task on a phone. Here it
 * runs the first time it is needed, which in this console is never.
 */
function lazyMantineDefaultVariables(): Plugin {
  const removeDefaults = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/]remove-default-variables\.mjs$/;
  const eager = 'const defaultCssVariables = defaultCssVariablesResolver(DEFAULT_THEME);';
  return {
    name: 'kumo-lazy-mantine-default-variables',
    transform(code, id) {
      if (!removeDefaults.test(id)) return null;
      if (!code.includes(eager)) this.error("Mantine's remove-default-variables module changed: revisit this plugin");
      const lazy = code
        .replace(eager, 'let defaultCssVariables;')
        .replace('function removeDefaultVariables(input) {', '$&\n\tdefaultCssVariables ??= defaultCssVariablesResolver(DEFAULT_THEME);');
      return { code: lazy, map: null };
    },
  };
}

export default defineConfig({
  root,
  plugins: [pureContractConstants(), stableMantineIds(), lazyMantineDefaultVariables(), react()],
  resolve: {
    // Dev server, build and tests all read the contract from source, so no contract build is needed first.
    alias: {
      '@kumo/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/dev': api,
      '/healthz': api,
      '/readyz': api,
      '/sandbox': api,
      // /oauth2/redirect and /oauth2/error are console routes; everything else under /oauth2 is the API's.
      '^/oauth2/(?!redirect|error)': api,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The budget test (bundle-budget.test.ts) walks the manifest from the sign-in entry.
    manifest: true,
    rolldownOptions: {
      // The contract's schemas are made by calls (z.object(...)), which a bundler must otherwise keep in case they do
      // something: a page importing one message of a contract module would build every schema of it at load. The
      // chains built on them are marked by pureContractConstants above.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Chromium's compile hint: every function of the file is compiled while it downloads, on a background thread.
        // Left to V8's guess, most were compiled on the main thread at their first call, 100-160 ms of a page's load
        // before a 4x slowdown (decision 0053). Added after minification, which drops comments.
        postBanner: '//# allFunctionsCalledOnLoad',
        // Chunks by what loads together (docs/architecture.md, "The console on a phone"): React, which changes least, in
        // its own; everything the sign-in entry needs in one chunk of its own; and for the signed-in screens, Mantine's
        // components, TanStack Query and the shell (guards, query cache, layout, the lib modules every page calls) in
        // one chunk each, so a page's first load is a dozen files rather than fifty, each a round trip on a phone's
        // network. The inputs only forms use (number, slider, password…) stay with the pages and dialogs that use them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 20 },
            { name: 'sign-in', tags: ['$initial'], priority: 15 },
            {
              name: 'mantine',
              test: (id: string) =>
                /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui)[\\/]/.test(id) &&
                !/[\\/](NumberInput|Slider|PasswordInput|SegmentedControl|Textarea|Autosize|Stepper|Pagination|Chip|RangeSlider|FileInput|ColorInput|ColorPicker|Rating|PinInput|TagsInput|MultiSelect|Autocomplete|Spoiler|Timeline)[\\/]/.test(
                  id,
                ),
              priority: 10,
            },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 10 },
            {
              name: 'console',
              test: /src[\\/](lib[\\/](api[\\/])?[^\\/]+\.ts$|lib[\\/]api[\\/]query-layout|app[\\/](shell|guards)|features[\\/](session|notices))/,
              priority: 5,
            },
          ],
        },
      },
    },
  },
});
