import { Suspense, useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ChunkErrorBoundary } from '../components/chunk-error-boundary';
import { FullPageLoader } from '../components/full-page-loader';
import { discardFirstScreen, firstScreenShown } from './first-screen/first-screen';
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
      <Suspense fallback={<FirstScreenOrLoader />}>
        <FirstPageShown />
        <Outlet />
      </Suspense>
    </ChunkErrorBoundary>
  );
}

/**
 * The loading fallback: on the first load of a customer page, nothing, for the first screen drawn into its HTML is
 * still on screen beside the root (first-screen.ts), else the loader. Unmounted, the page or the error boundary's
 * message has been committed in its place: the drawn screen goes in the same commit, before the next paint.
 */
function FirstScreenOrLoader() {
  const drawn = firstScreenShown();
  useLayoutEffect(() => (drawn ? discardFirstScreen : undefined), [drawn]);
  return drawn ? null : <FullPageLoader />;
}

/** Mounted with the first page shown: from then on the fallback is the loader. */
function FirstPageShown() {
  useLayoutEffect(discardFirstScreen, []);
  return null;
}
