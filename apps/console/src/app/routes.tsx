import { Navigate, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { AdminGuard } from './guards/admin-guard';
import { CustomerGuard } from './guards/customer-guard';
import { RootLayout } from './root-layout';
import { ADMIN_SECTIONS, CUSTOMER_SECTIONS } from './shell/sections';
import { ShellLayout } from './shell/shell-layout';
import { OAuth2RedirectPage } from '../features/auth/components/oauth2-redirect-page';
import { SignInScreen } from '../features/auth/components/sign-in-screen';
import { ClustersPage } from '../features/clusters/clusters-page';
import { CostAnalysisPage } from '../features/cost-analysis/cost-analysis-page';
import { InvitePage } from '../features/errors/invite-page';
import { NotFoundPage } from '../features/errors/not-found-page';
import { OAuth2ErrorPage } from '../features/errors/oauth2-error-page';
import { UnauthorizedPage } from '../features/errors/unauthorized-page';
import { HomePage } from '../features/home/home-page';
import { InviteAcceptPage } from '../features/invite/invite-accept-page';
import { SubscriptionsPage } from '../features/subscriptions/subscriptions-page';
import { UsersPage } from '../features/users/users-page';

const loadCustomersPage = () => import('../features/admin-customers/customers-page').then((m) => ({ Component: m.CustomersPage }));

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
      { path: '/invite', element: <InvitePage /> },
      { path: '/invite/accept', element: <InviteAcceptPage /> },
      { path: '/oauth2/redirect', element: <OAuth2RedirectPage /> },
      { path: '/oauth2/error', element: <OAuth2ErrorPage /> },
      { path: '/unauthorized-access', element: <UnauthorizedPage /> },
      { path: '/admin/unauthorized-access', element: <UnauthorizedPage /> },
      {
        element: <CustomerGuard />,
        children: [
          {
            element: <ShellLayout sectionSet={CUSTOMER_SECTIONS} />,
            children: [
              { index: true, element: <HomePage /> },
              { path: '/cost-analysis', element: <CostAnalysisPage /> },
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
            element: <ShellLayout sectionSet={ADMIN_SECTIONS} />,
            children: [
              { index: true, element: <Navigate to="/admin/customers" replace /> },
              { path: 'customers', lazy: loadCustomersPage },
              { path: 'customers/:userId', lazy: loadCustomersPage },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
