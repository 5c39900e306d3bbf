import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { RootLayout } from './root-layout';
import { SignInScreen } from '../features/auth/components/sign-in-screen';
import { lazyChunk } from '../lib/load-chunk';
import type { FirstRead } from '../lib/api/first-reads';

/**
 * A page loaded on demand: the RootLayout's (or the shell's) Suspense shows a loader the first time it is needed, and a
 * chunk that fails or does not arrive within its time-out reaches the RootLayout's error boundary.
 */
function page(load: () => Promise<ComponentType>) {
  return lazyChunk(() => load().then((Page) => ({ default: Page })));
}
/**
 * A page shown once its first reads are in the query cache (lib/api/first-reads.ts): it renders once, with its figures,
 * in slices that leave the browser free, instead of empty first and then all at once when the answers arrive.
 */
function pageWithReads(load: () => Promise<{ Page: ComponentType; reads: () => FirstRead[] }>) {
  return page(() =>
    Promise.all([load(), import('../lib/api/first-reads')]).then(([{ Page, reads }, { primeReads }]) =>
      primeReads(reads()).then(() => Page),
    ),
  );
}
/** One route's page; a page shared by several routes is made once (below), so moving between them keeps its state. */
function onDemand(load: () => Promise<ComponentType>) {
  const Page = page(load);
  return <Page />;
}

// Only the sign-in screens are part of the first download (bundle-budget.test.ts). Everything else, the guards and
// the query cache they read included, loads on demand: after sign-in, or when its address is opened.
const QueryLayout = lazyChunk(() => import('../lib/api/query-layout').then((m) => ({ default: m.QueryLayout })));
const CustomerGuard = lazyChunk(() => import('./guards/customer-guard').then((m) => ({ default: m.CustomerGuard })));
const AdminGuard = lazyChunk(() => import('./guards/admin-guard').then((m) => ({ default: m.AdminGuard })));
const SignedInGuard = lazyChunk(() => import('../features/errors/signed-in-guard').then((m) => ({ default: m.SignedInGuard })));
/** The shell with one area's sections (their icons are the shell's), both loaded on demand. */
function shellOf(area: 'CUSTOMER_SECTIONS' | 'ADMIN_SECTIONS') {
  return lazyChunk(async () => {
    const [{ ShellLayout, shellFirstReads }, sections, { primeReads }] = await Promise.all([
      import('./shell/shell-layout'),
      import('./shell/sections'),
      import('../lib/api/first-reads'),
    ]);
    // Staff have no bell (top-bar.tsx): the customer area's shell alone reads the notices.
    await primeReads(shellFirstReads(area === 'CUSTOMER_SECTIONS'));
    const sectionSet = sections[area];
    return { default: () => <ShellLayout sectionSet={sectionSet} /> };
  });
}
const CustomerShell = shellOf('CUSTOMER_SECTIONS');
const AdminShell = shellOf('ADMIN_SECTIONS');

const SubscriptionsPage = pageWithReads(() =>
  import('../features/subscriptions/subscriptions-page').then((m) => ({ Page: m.SubscriptionsPage, reads: m.subscriptionsFirstReads })),
);
const ClustersPage = pageWithReads(() =>
  import('../features/clusters/clusters-page').then((m) => ({ Page: m.ClustersPage, reads: m.clustersFirstReads })),
);
const UsersPage = pageWithReads(() =>
  import('../features/users/users-page').then((m) => ({ Page: m.UsersPage, reads: m.usersFirstReads })),
);
const HomePage = pageWithReads(() => import('./home-route').then((m) => ({ Page: m.HomeRoute, reads: m.homeFirstReads })));
const CostAnalysisPage = pageWithReads(() =>
  import('../features/cost-analysis/cost-analysis-page').then((m) => ({ Page: m.CostAnalysisPage, reads: m.costAnalysisFirstReads })),
);
const CustomersPage = page(() => import('../features/admin-customers/customers-page').then((m) => m.CustomersPage));
const UnauthorizedPage = page(() => import('../features/errors/unauthorized-page').then((m) => m.UnauthorizedPage));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // Keys give each sign-in route its own state, so switching between them starts afresh.
      { path: '/login', element: <SignInScreen key="login" mode="login" /> },
      { path: '/signup', element: <SignInScreen key="signup" mode="signup" /> },
      { path: '/admin/login', element: <SignInScreen key="admin" mode="admin" /> },
      {
        element: <QueryLayout />,
        children: [
          // Long legal texts and the staff area load on demand, keeping them out of the customer's first download.
          { path: '/terms-of-use', element: onDemand(() => import('../features/legal/terms-of-use-page').then((m) => m.TermsOfUsePage)) },
          {
            path: '/privacy-policy',
            element: onDemand(() => import('../features/legal/privacy-policy-page').then((m) => m.PrivacyPolicyPage)),
          },
          { path: '/invite', element: onDemand(() => import('../features/errors/invite-page').then((m) => m.InvitePage)) },
          {
            path: '/invite/accept',
            element: onDemand(() => import('../features/invite/invite-accept-page').then((m) => m.InviteAcceptPage)),
          },
          {
            path: '/oauth2/redirect',
            element: onDemand(() => import('../features/auth/components/oauth2-redirect-page').then((m) => m.OAuth2RedirectPage)),
          },
          { path: '/oauth2/error', element: onDemand(() => import('../features/errors/oauth2-error-page').then((m) => m.OAuth2ErrorPage)) },
          // Signed-in only: an anonymous visitor has nothing to be refused and goes to sign in.
          { element: <SignedInGuard signInPath="/login" />, children: [{ path: '/unauthorized-access', element: <UnauthorizedPage /> }] },
          {
            element: <SignedInGuard signInPath="/admin/login" />,
            children: [{ path: '/admin/unauthorized-access', element: <UnauthorizedPage /> }],
          },
          {
            element: <CustomerGuard />,
            children: [
              {
                element: <CustomerShell />,
                children: [
                  { index: true, element: <HomePage /> },
                  {
                    path: '/cost-analysis',
                    element: <CostAnalysisPage />,
                  },
                  { path: '/reports', element: onDemand(() => import('../features/reports/reports-page').then((m) => m.ReportsPage)) },
                  { path: '/subscriptions', element: <SubscriptionsPage /> },
                  { path: '/subscriptions/payment-status/success', element: <SubscriptionsPage /> },
                  { path: '/subscriptions/:subscriptionId', element: <SubscriptionsPage /> },
                  { path: '/clusters', element: <ClustersPage /> },
                  { path: '/clusters/:subscriptionId', element: <ClustersPage /> },
                  { path: '/clusters/:subscriptionId/:deploymentId', element: <ClustersPage /> },
                  { path: '/users', element: <UsersPage /> },
                  { path: '/users/:userId', element: <UsersPage /> },
                ],
              },
            ],
          },
          {
            path: '/admin',
            element: <AdminGuard />,
            children: [
              {
                element: <AdminShell />,
                children: [
                  { index: true, element: <Navigate to="/admin/customers" replace /> },
                  { path: 'customers', element: <CustomersPage /> },
                  { path: 'customers/:userId', element: <CustomersPage /> },
                  {
                    path: 'approvals',
                    element: onDemand(() => import('../features/admin-customers/approvals-page').then((m) => m.ApprovalsPage)),
                  },
                ],
              },
            ],
          },
          { path: '*', element: onDemand(() => import('../features/errors/not-found-page').then((m) => m.NotFoundPage)) },
        ],
      },
    ],
  },
];
