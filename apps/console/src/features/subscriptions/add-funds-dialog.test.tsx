import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { AddFundsDialog } from './add-funds-dialog';
import { leaveForCheckout } from './leave-for-checkout';

vi.mock('./leave-for-checkout', () => ({ leaveForCheckout: vi.fn() }));

afterEach(() => vi.unstubAllGlobals());

function renderDialog(purchase = () => jsonResponse(200, { redirect_url: 'http://localhost/sandbox/checkout/cs_sandbox_1' })) {
  const api = mockApi({ 'POST /api/credit/purchase': purchase });
  const onClose = vi.fn();
  renderRoutes([{ path: '/', element: <AddFundsDialog subscription={subscription()} onClose={onClose} /> }], '/');
  const amount = screen.getByLabelText(/Amount \(USD\)/);
  const proceed = screen.getByRole('button', { name: 'Proceed' });
  const user = userEvent.setup();
  /** Replaces the amount the way a person does: select it all, then type key by key. */
  const type = async (value: string) => {
    await user.clear(amount);
    await user.type(amount, value);
  };
  return { api, amount, proceed, type, user, onClose };
}

// Typing key by key is slower than setting values, and this machine is shared: room for it.
describe('add funds', { timeout: 15_000 }, () => {
  it('starts empty with Proceed disabled and no message until something is typed', () => {
    const { proceed } = renderDialog();
    expect(screen.getByText(/Current balance \$1,734.00/)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
    expect(screen.queryByText(MESSAGES.addFundsMinimum)).not.toBeInTheDocument();
  });

  it('shows no sample amount that could pass for a value while Proceed is disabled', () => {
    const { amount, proceed } = renderDialog();
    expect(amount).toHaveValue('');
    expect(amount).not.toHaveAttribute('placeholder');
    expect(proceed).toBeDisabled();
    // The allowed range is said in words under the field instead.
    expect(amount).toHaveAccessibleDescription('From $1 to $999,999');
  });

  it.each(['0', 'abc', '0.5'])('refuses %j with the minimum message and Proceed disabled', async (value) => {
    const { proceed, type } = renderDialog();
    await type(value);
    expect(screen.getByText(MESSAGES.addFundsMinimum)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
  });

  it.each(['-100', '\u2212100', 'e5'])('keeps %j as typed with the minimum message and Proceed disabled', async (value) => {
    const { amount, proceed, type } = renderDialog();
    await type(value);
    expect(amount).toHaveValue(value);
    expect(screen.getByText(MESSAGES.addFundsMinimum)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
  });

  it('refuses 1,000,000 and more with the maximum message but keeps what was typed', async () => {
    const { amount, proceed, type } = renderDialog();
    await type('1,000,000');
    expect(amount).toHaveValue('1000000');
    expect(screen.getByText(MESSAGES.addFundsMaximum)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
    await type('9999999');
    expect(amount).toHaveValue('9999999');
  });

  it('ignores keystrokes that reach 10,000,000 or a third decimal', async () => {
    const { amount, type, user } = renderDialog();
    await type('9999999');
    await user.type(amount, '0');
    expect(amount).toHaveValue('9999999');
    await type('12.34');
    await user.type(amount, '5');
    expect(amount).toHaveValue('12.34');
  });

  it('strips thousands separators and says the amount in words with USD', async () => {
    const { amount, proceed, type } = renderDialog();
    await type('1,234');
    expect(amount).toHaveValue('1234');
    expect(screen.getByText('One Thousand Two Hundred Thirty Four USD')).toBeInTheDocument();
    expect(proceed).toBeEnabled();
    await type('12.5');
    expect(screen.getByText('Twelve USD and Fifty Cents')).toBeInTheDocument();
  });

  it('counts the remaining remark characters', async () => {
    const { user } = renderDialog();
    expect(screen.getByText('200 characters remaining')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Remarks'), 'Q2 budget');
    expect(screen.getByText('191 characters remaining')).toBeInTheDocument();
  });

  it('opens the checkout for the exact amount and sends the browser there', async () => {
    const { api, proceed, type, user } = renderDialog();
    await type('1,234.50');
    await user.type(screen.getByLabelText('Remarks'), '  Q2 budget ');
    await user.click(proceed);
    await vi.waitFor(() => expect(leaveForCheckout).toHaveBeenCalledWith('http://localhost/sandbox/checkout/cs_sandbox_1'));
    expect(api.bodiesOf('POST /api/credit/purchase')).toEqual([
      {
        amount: '1234.50',
        event_name: 'ADD_FUNDS',
        remark: 'Q2 budget',
        iso_currency_code: 'USD',
        subscription_id: subscription().subscription_id,
        category: 'PURCHASED',
      },
    ]);
  });

  it('shows why the checkout could not be opened', async () => {
    const { proceed, type, user } = renderDialog(() =>
      errorResponse(503, 'PAYMENT_GATEWAY_UNAVAILABLE', MESSAGES.paymentGatewayUnavailable),
    );
    await type('50');
    await user.click(proceed);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.paymentGatewayUnavailable);
  });
});
