import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useActiveNames } from '../lib/active-names';
import { documentTitle } from './document-title';

export function RootLayout() {
  const { pathname } = useLocation();
  const activeNames = useActiveNames();
  useEffect(() => {
    document.title = documentTitle(pathname, activeNames);
  }, [pathname, activeNames]);
  return <Outlet />;
}
