import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { CustomersPage } from './customers-page';

const CUSTOMERS = [
  { user_id: 'c-1', user_name: 'Ada Lovelace', email_id: 'ada@example.com' },
  { user_id: 'c-2', user_name: 'Grace Hopper', email_id: 'grace@example.com' },
];

function renderCustomers(path: string, content = CUSTOMERS) {
  const api = mockApi({ 'GET /api/admin/users': () => jsonResponse(200, { content, totalPages: 1 }) });
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
    const details = await screen.findByRole('heading', { name: 'Ada Lovelace' });
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

    fireEvent.click(within(list).getByRole('link', { name: 'grace@example.com' }));
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/customers/c-2');
    expect(within(list).getByRole('link', { name: 'grace@example.com' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the name and e-mail in a tooltip over a customer', async () => {
    renderCustomers('/admin/customers/c-1');
    const list = await screen.findByRole('navigation', { name: 'Customers' });
    fireEvent.mouseEnter(within(list).getByRole('link', { name: 'grace@example.com' }));
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
    expect(screen.getByText('Customer details are unavailable.')).toBeInTheDocument();
  });
});
