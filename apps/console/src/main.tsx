import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import { Providers } from './app/providers';
import { routes } from './app/routes';
import { onSessionEnd } from './lib/session';
import { keepFirstScreen } from './app/first-screen/first-screen';

// Every session end logs out of the report tool too (spec section 4, lib/api/report-session.ts). Its API client is
// fetched only when a session ends, so the sign-in screen's first download stays within its budget.
onSessionEnd((token) => import('./lib/api/report-session').then(({ endReportSession }) => endReportSession(token)));

// The declarative router: the route tree's pages are lazy components (app/routes.tsx), which keeps the data router's
// loader and action machinery out of the sign-in screen's first download.
function AppRoutes() {
  return useRoutes(routes);
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
const reactContainer = keepFirstScreen(container);

// The rendering starts in a task of its own: the modules' evaluation before it is already a long task on a slow phone.
// A customer page's reads and code are on their way meanwhile, sent by its HTML (public/first-paint.js, the page's
// modulepreload links). Rendered as a transition, the first screen
// is then built in slices that leave the main thread free between them, not in one long task.
setTimeout(() => {
  const root = createRoot(reactContainer);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Providers>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </StrictMode>,
    ),
  );
}, 0);
