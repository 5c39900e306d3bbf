import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ChunkErrorBoundary } from '../components/chunk-error-boundary';
import { FullPageLoader } from '../components/full-page-loader';
import { useActiveNames } from '../lib/active-names';
import { documentTitle } from './document-title';

export function RootLayout() {
  const { pathname } = useLocation();
  const activeNames = useActiveNames();
  useEffect(() => {
    document.title = documentTitle(pathname, activeNames);
  }, [pathname, activeNames]);
  // Shown while a page loaded on demand arrives on its first visit; later visits keep the page on screen meanwhile. A
  // page whose chunk fails or does not arrive in time is caught by the error boundary, which offers a reload.
  return (
    <ChunkErrorBoundary resetKey={pathname}>
      <Suspense fallback={<FullPageLoader />}>
        <Outlet />
      </Suspense>
    </ChunkErrorBoundary>
  );
}
