import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { documentTitle } from './document-title';

export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  return <Outlet />;
}
