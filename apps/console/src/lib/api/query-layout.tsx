import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { queryClient } from './query-client';

/**
 * The console's query cache, for every page but the sign-in screens: it loads with the first of them, keeping
 * TanStack Query out of the sign-in screen's first download (their steps load it with their forms).
 */
export function QueryLayout({ children }: { children?: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children ?? <Outlet />}</QueryClientProvider>;
}
