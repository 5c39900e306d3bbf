import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type Transaction } from '@kumo/contract';
import { jsonResponse, mockApi, pathOf } from '../../../test/api';

const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : input.toString());
import { transaction, transactionPage } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { TransactionHistory } from './transaction-history';

const SUBSCRIPTION_ID = '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f';
const HISTORY = `GET /api/credit/view/credit-transactions/${SUBSCRIPTION_ID}`;

afterEach(() => vi.unstubAllGlobals());

function renderHistory(pages: Transaction[][], extra: Parameters<typeof mockApi>[0] = {}, unpaid: Transaction[] = []) {
  let asked = 0;
  const api = mockApi({
    [HISTORY]: () => jsonResponse(200, transactionPage(pages[asked++] ?? [], pages.length, unpaid)),
    ...extra,
  });
  renderRoutes([{ path: '/', element: <TransactionHistory subscriptionId={SUBSCRIPTION_ID} /> }], '/');
  return api;
}

const purchase = transaction({
  transaction_id: '7b1e6c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b',
  receipt_id: 'KC-00001000',
  category: 'PURCHASED',
  type: 'CREDIT',
  description: 'Funds added by card',
  remark: 'Q2 budget',
  amount: 1234,
  transaction_date: '2026-03-10T14:05:00.000Z',
});

describe('transaction history', () => {
  it('shows the columns of the specification and the balance after each entry, with money and dates in their formats', async () => {
    renderHistory([
      [
        { ...purchase, balance_after: 1734 },
        transaction({ category: 'USAGE', amount: -12.5, description: 'Service usage', balance_after: -0.07 }),
      ],
    ]);
    const table = await screen.findByRole('table', { name: 'Transaction history' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['ID', 'Receipt ID', 'Date', 'Category', 'Description and remarks', 'Amount', 'Balance', 'Actions']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('7b1e6c2a')).toHaveAccessibleName(`Transaction ${purchase.transaction_id}`);
    expect(first).toHaveTextContent('KC-00001000');
    expect(first).toHaveTextContent(/Mar 10, 2026 \d{1,2}:05 (AM|PM)/);
    expect(first).toHaveTextContent('Purchased');
    expect(first).toHaveTextContent('Funds added by card');
    expect(first).toHaveTextContent('Q2 budget');
    expect(first).toHaveTextContent('$1,234.00');
    expect(within(first!).getByRole('cell', { name: '$1,734.00' })).toHaveAttribute('data-label', 'Balance');
    expect(second).toHaveTextContent('-$12.50');
    expect(within(second!).getByRole('cell', { name: '-$0.07' })).toHaveAttribute('data-label', 'Balance');
    expect(second).toHaveTextContent('—');
  });

  it.each([
    ['FAILED', 'Failed'],
    ['PAYMENT_INTENT_CREATED', 'Awaiting payment'],
    ['PROCESSING', 'Processing'],
    ['CANCELLED', 'Cancelled'],
  ] as const)('lists a %s checkout apart from the paid entries, as %s', async (status, label) => {
    const checkout = transaction({ transaction_status: status, category: 'PURCHASED', amount: 99, balance_after: null });
    renderHistory([[purchase]], {}, [checkout]);
    const section = await screen.findByRole('table', { name: 'Checkouts not paid' });
    expect(within(section).getByText(label)).toBeInTheDocument();
    expect(within(section).getByText('$99.00')).toBeInTheDocument();
    const entries = screen.getByRole('table', { name: 'Transaction history' });
    expect(within(entries).getAllByRole('row')).toHaveLength(2);
    expect(within(entries).queryByText('$99.00')).not.toBeInTheDocument();
  });

  it('filters by kind on the server', async () => {
    const api = renderHistory([[purchase]]);
    await screen.findByRole('table', { name: 'Transaction history' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Show' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Usage' }));
    await vi.waitFor(() =>
      expect(api.fetchMock.mock.calls.map(([input]) => urlOf(input)).filter((url) => url.includes('kind=USAGE'))).toHaveLength(1),
    );
  });

  it('offers the receipt menu on successful card purchases and funds staff added, and on no other row (decision 0007)', async () => {
    const staffAdded = transaction({ category: 'REFUND_MAINTENANCE_COST', amount: 100 });
    renderHistory([
      [
        purchase,
        transaction({ category: 'PURCHASED', transaction_status: 'FAILED' }),
        transaction({ category: 'PURCHASED', transaction_status: 'PAYMENT_INTENT_CREATED' }),
        transaction({ category: 'FREE_CREDITS', amount: 500 }),
        transaction({ category: 'USAGE', amount: -12.5 }),
        transaction({ category: 'CREDITS_EXPIRED', amount: -20 }),
        staffAdded,
      ],
    ]);
    await screen.findByRole('table');
    const menus = screen.getAllByRole('button', { name: /^Receipt menu for/ }).map((menu) => menu.getAttribute('aria-label'));
    expect(menus).toEqual([purchase, staffAdded].map((row) => `Receipt menu for ${row.transaction_id}`));
  });

  it('warns that receipts of staff-added funds cannot be downloaded', async () => {
    const show = vi.spyOn(notifications, 'show');
    const admin = transaction({ category: 'REFUND_MAINTENANCE_COST', amount: 100 });
    const api = renderHistory([[admin]]);
    fireEvent.click(await screen.findByRole('button', { name: `Receipt menu for ${admin.transaction_id}` }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Download Receipt' }));
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: MESSAGES.adminReceiptNotDownloadable }));
    expect(api.fetchMock.mock.calls.some(([input]) => pathOf(input).startsWith('/api/credit/subscription/'))).toBe(false);
  });

  it('downloads a purchase receipt under the name the server gives', async () => {
    const createObjectURL = vi.fn(() => 'blob:receipt');
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderHistory([[purchase]], {
      [`GET /api/credit/subscription/${purchase.transaction_id}`]: () =>
        new Response('%PDF-1.7', {
          status: 200,
          headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${purchase.transaction_id}.pdf"` },
        }),
    });
    fireEvent.click(await screen.findByRole('button', { name: `Receipt menu for ${purchase.transaction_id}` }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Download Receipt' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe(`${purchase.transaction_id}.pdf`);
    expect(link.href).toBe('blob:receipt');
  });

  it("takes the page's height, no scroll box of its own, and loads the next page of 20 with Load more while pages remain", async () => {
    const first = Array.from({ length: 20 }, () => transaction());
    const second = Array.from({ length: 3 }, () => transaction({ description: 'Older usage' }));
    const api = renderHistory([first, second]);
    const table = await screen.findByRole('table', { name: 'Transaction history' });
    expect(screen.queryByTestId('transaction-scroll')).not.toBeInTheDocument();
    for (let box = table.parentElement; box; box = box.parentElement) expect(box.style.overflowY).not.toBe('auto');
    const historyCalls = () =>
      api.fetchMock.mock.calls
        .filter(([input]) => pathOf(input).startsWith('/api/credit/view/credit-transactions/'))
        .map(([input]) => urlOf(input));
    expect(historyCalls()[0]).toContain('page=0&size=20');

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findAllByText('Older usage')).toHaveLength(3);
    expect(historyCalls()[1]).toContain('page=1&size=20');
    // The last page is loaded: nothing more is offered.
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says when there are no transactions yet', async () => {
    renderHistory([[]]);
    expect(await screen.findByText(MESSAGES.noTransactions)).toBeInTheDocument();
  });
});
