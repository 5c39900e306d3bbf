import { Navigate, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { AdminGuard } from './guards/admin-guard';
import { CustomerGuard } from './guards/customer-guard';
import { RootLayout } from './root-layout';
import { ADMIN_SECTIONS, CUSTOMER_SECTIONS } from './shell/sections';
import { SignInScreen } from '../features/auth/components/sign-in-screen';
import { SignedInGuard } from '../features/errors/signed-in-guard';

const loadCustomersPage = () => import('../features/admin-customers/customers-page').then((m) => ({ Component: m.CustomersPage }));
const loadApprovalsPage = () => import('../features/admin-customers/approvals-page').then((m) => ({ Component: m.ApprovalsPage }));
// Signed-in pages load on demand so the sign-in screen's first download stays within its budget (bundle-budget.test.ts).
const loadInvitePage = () => import('../features/errors/invite-page').then((m) => ({ Component: m.InvitePage }));
const loadInviteAcceptPage = () => import('../features/invite/invite-accept-page').then((m) => ({ Component: m.InviteAcceptPage }));
const loadOAuth2RedirectPage = () =>
  import('../features/auth/components/oauth2-redirect-page').then((m) => ({ Component: m.OAuth2RedirectPage }));
const loadOAuth2ErrorPage = () => import('../features/errors/oauth2-error-page').then((m) => ({ Component: m.OAuth2ErrorPage }));
const loadUnauthorizedPage = () => import('../features/errors/unauthorized-page').then((m) => ({ Component: m.UnauthorizedPage }));
const loadNotFoundPage = () => import('../features/errors/not-found-page').then((m) => ({ Component: m.NotFoundPage }));
const loadCustomerShell = () => import('./shell/shell-layout').then((m) => ({ element: <m.ShellLayout sectionSet={CUSTOMER_SECTIONS} /> }));
const loadAdminShell = () => import('./shell/shell-layout').then((m) => ({ element: <m.ShellLayout sectionSet={ADMIN_SECTIONS} /> }));
const loadHomePage = () => import('./home-route').then((m) => ({ Component: m.HomeRoute }));
const loadCostAnalysisPage = () => import('../features/cost-analysis/cost-analysis-page').then((m) => ({ Component: m.CostAnalysisPage }));
const loadSubscriptionsPage = () =>
  import('../features/subscriptions/subscriptions-page').then((m) => ({ Component: m.SubscriptionsPage }));
const loadClustersPage = () => import('../features/clusters/clusters-page').then((m) => ({ Component: m.ClustersPage }));
const loadUsersPage = () => import('../features/users/users-page').then((m) => ({ Component: m.UsersPage }));
const loadReportsPage = () => import('../features/reports/reports-page').then((m) => ({ Component: m.ReportsPage }));

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    // Shown while a lazily loaded page arrives on the first visit.
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      // Keys give each sign-in route its own state, so switching between them starts afresh.
      { path: '/login', element: <SignInScreen key="login" mode="login" /> },
      { path: '/signup', element: <SignInScreen key="signup" mode="signup" /> },
      { path: '/admin/login', element: <SignInScreen key="admin" mode="admin" /> },
      // Long legal texts and the staff area load on demand, keeping them out of the customer's first download.
      {
        path: '/terms-of-use',
        lazy: () => import('../features/legal/terms-of-use-page').then((m) => ({ Component: m.TermsOfUsePage })),
      },
      {
        path: '/privacy-policy',
        lazy: () => import('../features/legal/privacy-policy-page').then((m) => ({ Component: m.PrivacyPolicyPage })),
      },
      { path: '/invite', lazy: loadInvitePage },
      { path: '/invite/accept', lazy: loadInviteAcceptPage },
      { path: '/oauth2/redirect', lazy: loadOAuth2RedirectPage },
      { path: '/oauth2/error', lazy: loadOAuth2ErrorPage },
      // Signed-in only: an anonymous visitor has nothing to be refused and goes to sign in.
      { element: <SignedInGuard signInPath="/login" />, children: [{ path: '/unauthorized-access', lazy: loadUnauthorizedPage }] },
      {
        element: <SignedInGuard signInPath="/admin/login" />,
        children: [{ path: '/admin/unauthorized-access', lazy: loadUnauthorizedPage }],
      },
      {
        element: <CustomerGuard />,
        children: [
          {
            lazy: loadCustomerShell,
            children: [
              { index: true, lazy: loadHomePage },
              { path: '/cost-analysis', lazy: loadCostAnalysisPage },
              { path: '/reports', lazy: loadReportsPage },
              { path: '/subscriptions', lazy: loadSubscriptionsPage },
              { path: '/subscriptions/payment-status/success', lazy: loadSubscriptionsPage },
              { path: '/subscriptions/:subscriptionId', lazy: loadSubscriptionsPage },
              { path: '/clusters', lazy: loadClustersPage },
              { path: '/clusters/:subscriptionId', lazy: loadClustersPage },
              { path: '/clusters/:subscriptionId/:deploymentId', lazy: loadClustersPage },
              { path: '/users', lazy: loadUsersPage },
              { path: '/users/:userId', lazy: loadUsersPage },
            ],
          },
        ],
      },
      {
        path: '/admin',
        element: <AdminGuard />,
        children: [
          {
            lazy: loadAdminShell,
            children: [
              { index: true, element: <Navigate to="/admin/customers" replace /> },
              { path: 'customers', lazy: loadCustomersPage },
              { path: 'customers/:userId', lazy: loadCustomersPage },
              { path: 'approvals', lazy: loadApprovalsPage },
            ],
          },
        ],
      },
      { path: '*', lazy: loadNotFoundPage },
    ],
  },
];
