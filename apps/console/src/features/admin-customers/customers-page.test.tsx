import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { permissionsFor, type PermissionState } from '@kumo/contract';
import { customerDetail } from '../../../test/admin-customers';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { CustomersPage } from './customers-page';

function signInStaff(permissions: Record<string, PermissionState> = permissionsFor('SYSTEM_ADMIN')) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions }));
}

const CUSTOMERS = [
  { user_id: 'c-1', user_name: 'Ada Lovelace', email_id: 'ada@example.com' },
  { user_id: 'c-2', user_name: 'Grace Hopper', email_id: 'grace@example.com' },
];

function renderCustomers(path: string, content = CUSTOMERS) {
  if (!localStorage.getItem('userInfo')) signInStaff();
  const api = mockApi({
    'GET /api/admin/users': () => jsonResponse(200, { content, totalPages: 1 }),
    ...Object.fromEntries(
      content.map((c) => [
        `GET /api/admin/users/${c.user_id}`,
        () => jsonResponse(200, customerDetail({ user_id: c.user_id, user_name: c.user_name, email_id: c.email_id })),
      ]),
    ),
    'GET /api/admin/users/nobody': () => errorResponse(404, 'NOT_FOUND', 'Customer not found.'),
  });
  const view = renderRoutes(
    [
      { path: '/admin/customers', element: <CustomersPage /> },
      { path: '/admin/customers/:userId', element: <CustomersPage /> },
    ],
    path,
  );
  return { ...view, api };
}

afterEach(() => vi.unstubAllGlobals());

describe('admin customers', () => {
  it('asks for the first page of 50 and selects the first customer', async () => {
    const { router, api } = renderCustomers('/admin/customers');
    const details = await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 4000 });
    expect(details).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/customers/c-1');
    expect(api.fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/users?page=0&size=50');
  });

  it('lists customers by e-mail and follows the selection in the route', async () => {
    const { router } = renderCustomers('/admin/customers/c-1');
    const list = await screen.findByRole('navigation', { name: 'Customers' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['ada@example.com', 'grace@example.com']);

    await userEvent.click(within(list).getByRole('link', { name: 'grace@example.com' }));
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' }, { timeout: 4000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/customers/c-2');
    expect(within(list).getByRole('link', { name: 'grace@example.com' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the name and e-mail in a tooltip over a customer', async () => {
    renderCustomers('/admin/customers/c-1');
    const list = await screen.findByRole('navigation', { name: 'Customers' });
    await userEvent.hover(within(list).getByRole('link', { name: 'grace@example.com' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Grace Hopper (grace@example.com)');
  });

  it('says when no customers are listed and no details are available', async () => {
    renderCustomers('/admin/customers', []);
    expect(await screen.findByText('No customers have been listed yet.')).toBeInTheDocument();
    expect(screen.getByText('Customer details are unavailable.')).toBeInTheDocument();
  });

  it('says details are unavailable for an unknown customer', async () => {
    renderCustomers('/admin/customers/nobody');
    await screen.findByRole('navigation', { name: 'Customers' });
    expect(await screen.findByText('Customer details are unavailable.')).toBeInTheDocument();
  });
});

describe('admin customers by permission', () => {
  const ALL = permissionsFor('SYSTEM_ADMIN');

  it('leaves out the list and does not load it when customer_list is hidden', async () => {
    signInStaff({ ...ALL, customer_list: 'HIDDEN' });
    const { api } = renderCustomers('/admin/customers');
    expect(screen.queryByText('All customers')).not.toBeInTheDocument();
    expect(screen.getByText('Customer details are unavailable.')).toBeInTheDocument();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('shows a disabled list that cannot be used', async () => {
    signInStaff({ ...ALL, customer_list: 'DISABLED' });
    renderCustomers('/admin/customers');
    await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 4000 });
    const list = screen.getByRole('navigation', { name: 'Customers' });
    expect(list.closest('[data-permission-disabled="customer_list"]')).toHaveAttribute('inert');
  });

  it('leaves out the details pane when customer_details is hidden, and treats absent keys as hidden', async () => {
    const { customer_details: _hidden, ...withoutDetails } = ALL;
    signInStaff(withoutDetails);
    renderCustomers('/admin/customers/c-1');
    await screen.findByRole('navigation', { name: 'Customers' });
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Ada Lovelace' })).not.toBeInTheDocument());
    expect(screen.queryByText('Customer details are unavailable.')).not.toBeInTheDocument();
  });
});
