import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transaction } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { transaction, transactionPage } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { TransactionHistory } from './transaction-history';

afterEach(() => vi.unstubAllGlobals());

const SUBSCRIPTION_ID = '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f';
const pending = transaction({
  transaction_id: '9c2f7d3b-4a5e-4f6a-9b0c-1d2e3f4a5b6c',
  category: 'PURCHASED',
  amount: 75,
  transaction_status: 'PAYMENT_INTENT_CREATED',
  balance_after: null,
});

describe('a checkout awaiting payment', () => {
  it('is listed apart from the entries, can be cancelled there, and then shows Cancelled', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    let unpaid: Transaction[] = [pending];
    const entries = [transaction({ transaction_id: 'b1c2d3e4-0000-4000-8000-000000000001', category: 'USAGE', amount: -5 })];
    const api = mockApi({
      [`GET /api/credit/view/credit-transactions/${SUBSCRIPTION_ID}`]: () => jsonResponse(200, transactionPage(entries, 1, unpaid)),
      [`POST /api/credit/cancel/${pending.transaction_id}`]: () => {
        unpaid = [{ ...pending, transaction_status: 'CANCELLED', balance_after: null }];
        return jsonResponse(200, {
          subscription_id: SUBSCRIPTION_ID,
          transaction_id: pending.transaction_id,
          amount: 75,
          transaction_status: 'CANCELLED',
          receipt_id: null,
          failure_message: null,
        });
      },
    });
    renderRoutes([{ path: '/', element: <TransactionHistory subscriptionId={SUBSCRIPTION_ID} /> }], '/');

    // Apart from the paid entries: in its own section, saying it waits for payment, not "Pending" beside them.
    const section = await screen.findByRole('table', { name: 'Checkouts not paid' });
    expect(within(section).getByText('Awaiting payment')).toBeInTheDocument();
    const entriesTable = screen.getByRole('table', { name: 'Transaction history' });
    expect(within(entriesTable).queryByText('$75.00')).not.toBeInTheDocument();
    expect(within(entriesTable).queryByText('Pending')).not.toBeInTheDocument();

    // Only the awaiting checkout offers it.
    const menus = screen.getAllByRole('button', { name: /^Actions for/ });
    expect(menus.map((menu) => menu.getAttribute('aria-label'))).toEqual([`Actions for ${pending.transaction_id}`]);
    await user.click(menus[0]!);
    await user.click(await screen.findByRole('menuitem', { name: 'Cancel checkout' }));

    await within(section).findByText('Cancelled');
    expect(api.bodiesOf(`POST /api/credit/cancel/${pending.transaction_id}`)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();
  });
});
