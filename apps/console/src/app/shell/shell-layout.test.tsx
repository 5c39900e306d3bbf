import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
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

function renderShell(path: string, user = userDetail()) {
  saveTokens('jwt', 'refresh');
  saveUser(user);
  const api = mockApi({ 'POST /api/user/logout': () => jsonResponse(200, { message: 'Logged out.' }) });
  const sectionSet = path.startsWith('/admin') ? ADMIN_SECTIONS : CUSTOMER_SECTIONS;
  const view = renderRoutes(
    [
      {
        element: <ShellLayout sectionSet={sectionSet} />,
        children: [
          { path: '/', element: <p>Home page</p> },
          { path: '/clusters/*', element: <p>Clusters page</p> },
          { path: '/admin/customers/*', element: <p>Customers page</p> },
        ],
      },
      landed('/login'),
      landed('/admin/login'),
    ],
    path,
  );
  return { ...view, api };
}

const openProfileMenu = () => fireEvent.click(screen.getByRole('button', { name: /Profile menu/ }));

afterEach(() => vi.unstubAllGlobals());

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

  it("opens the current section's help page in a new tab", () => {
    renderShell('/clusters');
    const help = screen.getByRole('link', { name: /Help/ });
    expect(help).toHaveAttribute('href', 'https://docs.kumo.cloud/clusters');
    expect(help).toHaveAttribute('target', '_blank');
  });

  it('shows the admin menu, matched on the second path segment', () => {
    renderShell('/admin/customers/c-1', userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null }));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Customers' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: /Help/ })).toHaveAttribute('href', 'https://docs.kumo.cloud/admin/customers');
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
