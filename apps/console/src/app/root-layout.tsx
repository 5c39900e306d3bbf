import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ChunkErrorBoundary } from '../components/chunk-error-boundary';
import { FullPageLoader } from '../components/full-page-loader';
import { discardFirstScreen, firstScreenMarkup } from './first-screen/first-screen';
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
 * The loading fallback: on the first load of a customer page, the first screen drawn into its HTML (the same markup,
 * so the screen does not change while the page's code arrives), else the loader.
 */
function FirstScreenOrLoader() {
  const markup = firstScreenMarkup();
  return markup ? <div style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: markup }} /> : <FullPageLoader />;
}

/** Mounted with the first page shown: from then on the fallback is the loader. */
function FirstPageShown() {
  useEffect(discardFirstScreen, []);
  return null;
}
