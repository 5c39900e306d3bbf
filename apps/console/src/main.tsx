import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import { Providers } from './app/providers';
import { routes } from './app/routes';
import { endReportSessionsWithSignIn } from './lib/api/report-session';

// Every session end also logs out of the report tool (spec section 4).
endReportSessionsWithSignIn();

// The declarative router: the route tree's pages are lazy components (app/routes.tsx), which keeps the data router's
// loader and action machinery out of the sign-in screen's first download.
function AppRoutes() {
  return useRoutes(routes);
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
