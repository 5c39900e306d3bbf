import { canUseCustomerArea } from '@kumo/contract';
import { startEarlyReads } from '../lib/early-reads';
import { getSession } from '../lib/session';

/** The customer pages a signed-in person most often opens the console on, by the start of their address. */
const FIRST_PAGES: [prefix: string, load: () => Promise<unknown>][] = [
  ['/clusters', () => import('../features/clusters/clusters-page')],
  ['/subscriptions', () => import('../features/subscriptions/subscriptions-page')],
  ['/cost-analysis', () => import('../features/cost-analysis/cost-analysis-page')],
  ['/users', () => import('../features/users/users-page')],
];

/**
 * Starts fetching, all at once, the code a signed-in person's first screen waits for: the query cache, the customer
 * guard, the shell and the page of the address opened. Left to the routes, each of them would be asked for only once
 * the one before it had arrived and rendered, a chain of round trips on a slow network. Nothing happens without a
 * session (the sign-in screens need none of it) or for other addresses.
 */
export function preloadFirstRoute(pathname: string): void {
  const { jwtToken: token, user } = getSession();
  if (!token) return;
  // The reads are a customer's: staff opening the bare address go to their own area, which reads nothing of these.
  if (user && canUseCustomerArea(user.role)) startEarlyReads(pathname, token);
  const page = pathname === '/' ? () => import('./home-route') : FIRST_PAGES.find(([prefix]) => pathname.startsWith(prefix))?.[1];
  if (!page) return;
  const loads = [
    import('../lib/api/query-layout'),
    import('./guards/customer-guard'),
    import('./shell/shell-layout'),
    import('./shell/sections'),
    page(),
  ];
  // A failed fetch is the route's to report when it asks for the same module.
  for (const load of loads) load.catch(() => undefined);
}
