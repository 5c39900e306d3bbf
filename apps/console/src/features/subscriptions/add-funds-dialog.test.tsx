import { fireEvent, screen } from '@testing-library/react';
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
  const type = (value: string) => fireEvent.change(amount, { target: { value } });
  return { api, amount, proceed, type, onClose };
}

describe('add funds', () => {
  it('starts empty with Proceed disabled and no message until something is typed', () => {
    const { proceed } = renderDialog();
    expect(screen.getByText(/Current balance \$1,734.00/)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
    expect(screen.queryByText(MESSAGES.addFundsMinimum)).not.toBeInTheDocument();
  });

  it.each(['0', 'abc', '0.5'])('refuses %j with the minimum message and Proceed disabled', (value) => {
    const { proceed, type } = renderDialog();
    type(value);
    expect(screen.getByText(MESSAGES.addFundsMinimum)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
  });

  it('refuses 1,000,000 and more with the maximum message but keeps what was typed', () => {
    const { amount, proceed, type } = renderDialog();
    type('1,000,000');
    expect(amount).toHaveValue('1000000');
    expect(screen.getByText(MESSAGES.addFundsMaximum)).toBeInTheDocument();
    expect(proceed).toBeDisabled();
    type('9999999');
    expect(amount).toHaveValue('9999999');
  });

  it('ignores keystrokes that reach 10,000,000 or a third decimal', () => {
    const { amount, type } = renderDialog();
    type('9999999');
    type('99999990');
    expect(amount).toHaveValue('9999999');
    type('12.34');
    type('12.345');
    expect(amount).toHaveValue('12.34');
  });

  it('strips thousands separators and says the amount in words with USD', () => {
    const { amount, proceed, type } = renderDialog();
    type('1,234');
    expect(amount).toHaveValue('1234');
    expect(screen.getByText('One Thousand Two Hundred Thirty Four USD')).toBeInTheDocument();
    expect(proceed).toBeEnabled();
    type('12.5');
    expect(screen.getByText('Twelve USD and Fifty Cents')).toBeInTheDocument();
  });

  it('counts the remaining remark characters', () => {
    renderDialog();
    expect(screen.getByText('200 characters remaining')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Remarks'), { target: { value: 'Q2 budget' } });
    expect(screen.getByText('191 characters remaining')).toBeInTheDocument();
  });

  it('opens the checkout for the exact amount and sends the browser there', async () => {
    const { api, proceed, type } = renderDialog();
    type('1,234.50');
    fireEvent.change(screen.getByLabelText('Remarks'), { target: { value: '  Q2 budget ' } });
    fireEvent.click(proceed);
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
    const { proceed, type } = renderDialog(() => errorResponse(502, 'PAYMENT_GATEWAY_UNAVAILABLE', MESSAGES.paymentGatewayUnavailable));
    type('50');
    fireEvent.click(proceed);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.paymentGatewayUnavailable);
  });
});
