import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
// The API keeps the browser's Host so its same-origin check sees the page's own origin.
const api = { target: `http://localhost:${process.env.PORT ?? 8080}`, changeOrigin: false, xfwd: true };

export default defineConfig({
  root,
  plugins: [react()],
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
      output: {
        // React changes less often than the console, and every page needs it: its own chunk stays cached across releases.
        // Mantine and the other libraries are left to the route split, so a page downloads only the components it
        // uses (one shared Mantine chunk would put every page's components on the sign-in screen).
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
