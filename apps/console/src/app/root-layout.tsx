import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { useActiveNames } from '../lib/active-names';
import { documentTitle } from './document-title';

export function RootLayout() {
  const { pathname } = useLocation();
  const activeNames = useActiveNames();
  useEffect(() => {
    document.title = documentTitle(pathname, activeNames);
  }, [pathname, activeNames]);
  // Shown while a page loaded on demand arrives on its first visit; later visits keep the page on screen meanwhile.
  return (
    <Suspense fallback={<FullPageLoader />}>
      <Outlet />
    </Suspense>
  );
}
