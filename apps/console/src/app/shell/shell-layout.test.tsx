import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Notifications, notifications } from '@mantine/notifications';
import { Outlet } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, STORAGE_KEYS } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { ADMIN_SECTIONS, CUSTOMER_SECTIONS } from './sections';
import { ShellLayout } from './shell-layout';

const twoAccounts = userDetail({
  accounts: [
    {
      account_id: '11111111-1111-4111-8111-111111111111',
      role: 'ACCOUNT_OWNER',
      logged_in: true,
      account_owner_email_id: 'ada@example.com',
    },
    {
      account_id: '22222222-2222-4222-8222-222222222222',
      role: 'ACCOUNT_ADMIN',
      logged_in: false,
      account_owner_email_id: 'grace@navy.example',
    },
  ],
});

const HELP_LINKS = {
  BASE_URL: 'https://docs.example/',
  links: {
    home: '/getting-started',
    cost_analysis: '/billing/cost-analysis',
    subscriptions: '/billing/subscriptions',
    clusters: '/clusters/deploy',
    users: '/account/users',
    admin_customers: '/operations/customers',
  },
};

function renderShell(path: string, user = userDetail(), handlers: Parameters<typeof mockApi>[0] = {}) {
  saveTokens('jwt', 'refresh');
  saveUser(user);
  const api = mockApi({
    'POST /api/user/logout': () => jsonResponse(200, { message: 'Logged out.' }),
    'GET /api/saas-common/help-document-links': () => jsonResponse(200, HELP_LINKS),
    'GET /api/user/notifications': () => jsonResponse(200, { content: [], totalPages: 0, unread: 0 }),
    ...handlers,
  });
  const sectionSet = path.startsWith('/admin') ? ADMIN_SECTIONS : CUSTOMER_SECTIONS;
  const view = renderRoutes(
    [
      {
        element: (
          <>
            <Notifications />
            <Outlet />
          </>
        ),
        children: [
          {
            element: <ShellLayout sectionSet={sectionSet} />,
            children: [
              { path: '/', element: <p>Home page</p> },
              { path: '/clusters/*', element: <p>Clusters page</p> },
              { path: '*', element: <p>Some page</p> },
              { path: '/admin/customers/*', element: <p>Customers page</p> },
            ],
          },
          landed('/login'),
          landed('/admin/login'),
        ],
      },
    ],
    path,
  );
  return { ...view, api };
}

const openProfileMenu = () => fireEvent.click(screen.getByRole('button', { name: /Profile menu/ }));

afterEach(() => {
  vi.unstubAllGlobals();
  // The toast store outlives a test; a full queue would hold back the next test's toasts.
  notifications.clean();
});

describe('navigation rail, breadcrumb and help', () => {
  it('lists the customer sections and highlights the current one', () => {
    renderShell('/clusters/s-1/d-1');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const labels = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels).toEqual(['Home', 'Cost Analysis', 'Subscriptions', 'Clusters', 'Users']);
    expect(within(nav).getByRole('link', { name: 'Clusters' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Clusters')).toBeInTheDocument();
  });

  it("opens the current section's help page from the help-links call in a new tab", async () => {
    renderShell('/clusters');
    const help = await screen.findByRole('link', { name: /Help/ });
    expect(help).toHaveAttribute('href', 'https://docs.example/clusters/deploy');
    expect(help).toHaveAttribute('target', '_blank');
    expect(help).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it.each([
    ['/', 'https://docs.example/getting-started'],
    ['/cost-analysis', 'https://docs.example/billing/cost-analysis'],
    ['/subscriptions/s-1', 'https://docs.example/billing/subscriptions'],
    ['/users/u-1', 'https://docs.example/account/users'],
    ['/reports', 'https://docs.example/getting-started'],
  ])('chooses the help page for %s', async (path, href) => {
    renderShell(path);
    expect(await screen.findByRole('link', { name: /Help/ })).toHaveAttribute('href', href);
  });

  it('keeps Help inactive while the links cannot be loaded', async () => {
    const { api } = renderShell('/', userDetail(), {
      'GET /api/saas-common/help-document-links': () => errorResponse(500, 'INTERNAL_ERROR', 'Internal Server Error'),
    });
    await waitFor(() => expect(api.bodiesOf('GET /api/saas-common/help-document-links')).toHaveLength(1));
    expect(screen.getByRole('button', { name: /Help/ })).toBeDisabled();
    expect(screen.queryByRole('link', { name: /Help/ })).not.toBeInTheDocument();
  });

  it('shows the admin menu, matched on the second path segment', async () => {
    renderShell('/admin/customers/c-1', userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null }));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Customers' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('link', { name: /Help/ })).toHaveAttribute('href', 'https://docs.example/operations/customers'); // Staff work in no account: no bell (and no call for notices, which the mock would refuse).
    expect(screen.queryByRole('button', { name: /Notifications/ })).not.toBeInTheDocument();
  });

  it('shows the customer the bell with the unread count', async () => {
    renderShell('/', userDetail(), {
      'GET /api/user/notifications': () => jsonResponse(200, { content: [], totalPages: 0, unread: 3 }),
    });
    expect(await screen.findByRole('button', { name: 'Notifications, 3 unread' })).toBeInTheDocument();
  });

  it('shows the footer with version and copyright', () => {
    renderShell('/');
    expect(screen.getByText('Version 1.4.0')).toBeInTheDocument();
    expect(screen.getByText(`© ${new Date().getFullYear()} Kumo Cloud, Inc. All rights reserved.`)).toBeInTheDocument();
  });
});

describe('profile menu', () => {
  it('shows initials, name, e-mail and the working account', async () => {
    renderShell('/');
    expect(screen.getByRole('button', { name: /Profile menu/ })).toHaveTextContent('AL');
    openProfileMenu();
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('Working account')).toBeInTheDocument();
    expect(within(menu).getAllByText('ada@example.com')).toHaveLength(2);
    expect(within(menu).queryByText('Accounts')).not.toBeInTheDocument();
  });

  it('lists accounts when there is more than one, the active one marked and not clickable', async () => {
    renderShell('/', twoAccounts);
    openProfileMenu();
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Accounts')).toBeInTheDocument();
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['grace@navy.exampleAccount Admin', 'Logout']);
    expect(within(menu).getByText('Active').closest('[aria-current="true"]')).toHaveTextContent('ada@example.com');
  });

  it('logs out: posts logout, clears the session and goes to the login', async () => {
    const { api } = renderShell('/');
    openProfileMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Landed on /login')).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/logout')).toHaveLength(1);
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBeNull();
  });

  it('sends staff to the admin login after logout', async () => {
    renderShell('/admin/customers', userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null }));
    openProfileMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByText('Landed on /admin/login')).toBeInTheDocument());
  });
});

describe('switching accounts', () => {
  const GRACE_ACCOUNT = '22222222-2222-4222-8222-222222222222';
  const switched = userDetail({
    accounts: [
      { ...twoAccounts.accounts[0]!, logged_in: false },
      { ...twoAccounts.accounts[1]!, logged_in: true },
    ],
    role: 'ACCOUNT_ADMIN',
    ownerEmailId: 'grace@navy.example',
  });

  async function switchToGrace(answer: () => Response, path = '/clusters/s-1') {
    const view = renderShell(path, twoAccounts, {
      'POST /api/user/switch-account': answer,
      'GET /api/user/detail': () => jsonResponse(200, switched),
    });
    openProfileMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: /grace@navy.example/ }));
    return view;
  }

  it('sends the account id with the bearer and refresh tokens, stores the new tokens and goes home', async () => {
    const { api, router } = await switchToGrace(() =>
      jsonResponse(200, { data: MESSAGES.accountSwitched }, { jwt_token: 'grace-jwt', refresh_token: 'grace-refresh' }),
    );

    expect(await screen.findByText(MESSAGES.accountSwitched)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.bodiesOf('POST /api/user/switch-account')).toEqual([{ switching_account_id: GRACE_ACCOUNT }]);
    const init = api.fetchMock.mock.calls.find(([input]) => input === '/api/user/switch-account')?.[1];
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer jwt');
    expect(new Headers(init?.headers).get('Refresh-Token')).toBe('refresh');
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBe('grace-jwt');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('grace-refresh');
    expect(screen.getByRole('button', { name: /Profile menu/ })).toBeInTheDocument();
  });

  it.each([
    [400, 'REFRESH_TOKEN_INVALID', 'Invalid Refresh token.', MESSAGES.refreshInvalid],
    [400, 'REFRESH_TOKEN_INVALID', MESSAGES.refreshTokenMissing, MESSAGES.refreshTokenMissing],
    [404, 'ROLE_MAPPING_NOT_FOUND', 'Not found.', MESSAGES.accountSwitchRoleMappingNotFound],
    [500, 'INTERNAL_ERROR', 'Internal Server Error', MESSAGES.refreshNotFound],
  ])('ends the session on a %i (%s: %s) and says %s', async (status, code, serverMessage, shown) => {
    await switchToGrace(() => errorResponse(status, code, serverMessage));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBeNull();
  });

  it("says 'Something went wrong.' for any other failure and keeps the session", async () => {
    const { router } = await switchToGrace(() => errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.'));
    expect(await screen.findByText(MESSAGES.somethingWentWrong)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.jwtToken)).toBe('jwt');
    expect(router.state.location.pathname).toBe('/clusters/s-1');
  });
});
