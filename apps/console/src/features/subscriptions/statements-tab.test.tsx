import { configure, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Statement } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { StatementsTab } from './statements-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});
configure({ asyncUtilTimeout: 5000 });

const ANALYTICS = subscription({ created_at: '2026-09-14T09:00:00.000Z' });
const PATH = `/api/subscription/statement/${ANALYTICS.subscription_id}`;
const OCTOBER: Statement = {
  subscription_id: ANALYTICS.subscription_id,
  subscription_name: 'Analytics',
  account_owner: { name: 'Dana Demo', email: 'owner@demo.kumo.cloud' },
  month: '2026-10',
  currency: 'USD',
  opening_balance: 500,
  top_ups: [
    { date: '2026-10-02T10:00:00.000Z', amount: 40, method: 'CARD', receipt_id: 'KC-00000012' },
    { date: '2026-10-20T10:00:00.000Z', amount: 25, method: 'AUTOMATIC', receipt_id: 'KC-00000013' },
  ],
  staff_additions: [{ date: '2026-10-05T10:00:00.000Z', amount: 12.34, reason: 'SERVICE_CREDIT' }],
  free_credits_granted: [],
  free_credits_expired: [{ date: '2026-10-30T10:00:00.000Z', amount: -7.77 }],
  refunds: [],
  transfers: [{ date: '2026-10-25T10:00:00.000Z', amount: 10, direction: 'IN' }],
  usage: { total: 3.21, by_cluster: [], earlier_months: [{ month: '2026-09', amount: 1.5 }], posted_later: 0.5 },
  movements: 75.36,
  closing_balance: 575.36,
};

/** The address of the first call the tab made. */
function firstUrl(api: ReturnType<typeof mockApi>): string {
  const [input] = api.fetchMock.mock.calls[0]!;
  return input instanceof Request ? input.url : input.toString();
}

/** Renders the tab on 2026-11-25, so it lists September to November. */
function renderTab(handlers: Parameters<typeof mockApi>[0] = {}) {
  vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z'), toFake: ['Date'] });
  const api = mockApi({ [`GET ${PATH}`]: () => jsonResponse(200, OCTOBER), ...handlers });
  renderRoutes([{ path: '/', element: <StatementsTab subscription={ANALYTICS} /> }], '/');
  return api;
}

describe('the statements tab', () => {
  it('lists the months from the subscription’s first to the current one, newest first', () => {
    renderTab();
    const rows = within(screen.getByRole('table', { name: 'Monthly statements' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['2026-11', '2026-10', '2026-09']);
  });

  it('shows a viewed month’s opening, movements and closing balance, each top-up and each transfer', async () => {
    const api = renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'View 2026-10' }));
    const statement = await screen.findByRole('region', { name: 'Statement for 2026-10' });
    expect(within(statement).getByRole('group', { name: 'Opening balance' })).toHaveTextContent('$500.00');
    expect(within(statement).getByRole('group', { name: 'Usage' })).toHaveTextContent('-$3.21');
    expect(within(statement).getByRole('group', { name: 'Movements' })).toHaveTextContent('$75.36');
    expect(within(statement).getByRole('group', { name: 'Closing balance' })).toHaveTextContent('$575.36');
    const movements = within(statement).getByRole('table', { name: 'Movements in 2026-10' });
    expect(within(movements).getByRole('row', { name: /Card top-up KC-00000012/ })).toHaveTextContent('$40.00');
    expect(within(movements).getByRole('row', { name: /Automatic top-up KC-00000013/ })).toHaveTextContent('$25.00');
    expect(within(movements).getByRole('row', { name: /Service Credit from Kumo Cloud/ })).toHaveTextContent('$12.34');
    expect(within(movements).getByRole('row', { name: /^Usage of October 2026 -\$3\.21$/ })).toHaveTextContent('-$3.21');
    expect(within(movements).getByRole('row', { name: /Usage of September 2026 posted in October 2026/ })).toHaveTextContent('-$1.50');
    expect(within(movements).getByRole('row', { name: /Usage of October 2026 posted after it/ })).toHaveTextContent('$0.50');
    expect(within(movements).getByRole('row', { name: /Free credits expired/ })).toHaveTextContent('-$7.77');
    expect(within(movements).getByRole('row', { name: /Paid funds moved in from a deleted subscription/ })).toHaveTextContent('$10.00');
    expect(firstUrl(api)).toContain('month=2026-10');
    expect(firstUrl(api)).toContain('format=json');
  });

  it('says why a statement could not be read', async () => {
    renderTab({ [`GET ${PATH}`]: () => errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.') });
    fireEvent.click(screen.getByRole('button', { name: 'View 2026-11' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do this.');
    expect(screen.queryByRole('region', { name: /Statement for/ })).not.toBeInTheDocument();
  });

  it('downloads a month’s PDF under the name the server gives', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:statement'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const api = renderTab({
      [`GET ${PATH}`]: () =>
        new Response('%PDF-1.7', {
          status: 200,
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="statement-2026-10.pdf"' },
        }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'PDF of 2026-10' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('statement-2026-10.pdf');
    expect(firstUrl(api)).toContain('format=pdf');
  });
});
