import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import { Providers } from './app/providers';
import { FullPageLoader } from './components/full-page-loader';
import { routes } from './app/routes';
import { preloadFirstRoute } from './app/preload-first-route';
import { onSessionEnd } from './lib/session';

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
const root = createRoot(container);
const app = (
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>
);

// A signed-in person's first screen renders once its code has arrived, all of it in one pass, as a transition that
// React splits into short tasks: rendered as each lazy part came in, the shell and the page would render, wait and
// render again, in long tasks, and the work thrown away meanwhile is much of what a phone spends before the page
// shows. The loader the routes would show stands in meanwhile.
const firstRoute = preloadFirstRoute(window.location.pathname);
if (firstRoute) {
  root.render(
    <StrictMode>
      <Providers>
        <FullPageLoader />
      </Providers>
    </StrictMode>,
  );
  void firstRoute.then(() => startTransition(() => root.render(app)));
} else {
  root.render(app);
}
