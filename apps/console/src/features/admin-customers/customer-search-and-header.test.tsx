import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { permissionsFor } from '@kumo/contract';
import { CUSTOMER_ID, adminSubscription, customerDetail } from '../../../test/admin-customers';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { CustomersPage } from './customers-page';

vi.setConfig({ testTimeout: 20_000 });

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());

const CUSTOMERS = [
  { user_id: CUSTOMER_ID, user_name: 'Ada Lovelace', email_id: 'ada@example.com' },
  { user_id: 'c-2', user_name: 'Grace Hopper', email_id: 'grace@example.com' },
];

function render() {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions: permissionsFor('SYSTEM_ADMIN') }));
  let balance = 721.7;
  const api = mockApi({
    'GET /api/admin/users': () => jsonResponse(200, { content: CUSTOMERS, totalPages: 1 }),
    [`GET /api/admin/users/${CUSTOMER_ID}`]: () => jsonResponse(200, customerDetail({ total_subscription_balance: balance })),
    [`GET /api/admin/view-subscriptions/${CUSTOMER_ID}`]: () => {
      // Usage was charged meanwhile: the subscriptions read now says less than the header read before.
      balance = 716.09;
      return jsonResponse(200, { content: [adminSubscription({ balance: 716.09, total_amount: 716.09 })], totalPages: 1 });
    },
  });
  const view = renderRoutes(
    [
      { path: '/admin/customers', element: <CustomersPage /> },
      { path: '/admin/customers/:userId', element: <CustomersPage /> },
    ],
    `/admin/customers/${CUSTOMER_ID}`,
  );
  const asked = () =>
    api.fetchMock.mock.calls
      .map(([input]) => urlOf(input))
      .filter((url) => url.startsWith('/api/admin/users?'))
      .map((url) => new URL(url, 'http://x').searchParams.get('search'));
  return { ...view, api, asked };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('customer search and the header balance', () => {
  it('asks the server for the customers matching what is typed, 50 a page', async () => {
    const { asked, api } = render();
    const search = await screen.findByRole('searchbox', { name: 'Search customers by e-mail or name' });
    await userEvent.type(search, 'Grace');
    await waitFor(() => expect(asked()).toContain('Grace'));
    const last = api.fetchMock.mock.calls
      .map(([input]) => urlOf(input))
      .filter((url) => url.startsWith('/api/admin/users?'))
      .at(-1);
    expect(last).toBe('/api/admin/users?page=0&size=50&search=Grace');
  });

  it('refreshes the header total when the Subscriptions tab reads newer balances', async () => {
    render();
    const total = await screen.findByRole('group', { name: 'Total subscriptions balance' });
    expect(total).toHaveTextContent('$721.70');
    await userEvent.click(screen.getByRole('tab', { name: 'Subscriptions' }));
    const table = await screen.findByRole('table', { name: 'Subscriptions' });
    expect(within(table).getByText('$716.09')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('group', { name: 'Total subscriptions balance' })).toHaveTextContent('$716.09'));
  });
});
