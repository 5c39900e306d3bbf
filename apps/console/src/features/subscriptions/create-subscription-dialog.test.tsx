import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { CreateSubscriptionDialog } from './create-subscription-dialog';

afterEach(() => vi.unstubAllGlobals());

const NEW_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

function renderDialog(create = () => jsonResponse(200, { subscription_id: NEW_ID, message: MESSAGES.subscriptionCreated })) {
  const api = mockApi({ 'POST /api/subscription/create': create });
  const onClose = vi.fn();
  const view = renderRoutes(
    [{ path: '/subscriptions', element: <CreateSubscriptionDialog opened onClose={onClose} /> }, landed('/subscriptions/:subscriptionId')],
    '/subscriptions',
  );
  const name = screen.getByLabelText(/Subscription Name/);
  const subscribe = screen.getByRole('button', { name: 'Subscribe' });
  return { ...view, api, onClose, name, subscribe };
}

describe('new subscription', () => {
  it('offers the prepaid plan only', () => {
    renderDialog();
    expect(screen.getByDisplayValue('Prepaid')).toHaveAttribute('readonly');
  });

  it('says the name is required once the field is left empty, and disables Subscribe while it shows', () => {
    const { name, subscribe } = renderDialog();
    fireEvent.blur(name);
    expect(screen.getByText(MESSAGES.subscriptionNameRequired)).toBeInTheDocument();
    expect(subscribe).toBeDisabled();
  });

  it.each(['ab', '1abc', 'ab_c', 'abc!'])('shows the format message for %j', (value) => {
    const { name, subscribe } = renderDialog();
    fireEvent.change(name, { target: { value } });
    expect(screen.getByText(MESSAGES.subscriptionNameFormat)).toBeInTheDocument();
    expect(subscribe).toBeDisabled();
  });

  it('keeps the name within 50 characters and without leading spaces', () => {
    const { name } = renderDialog();
    fireEvent.change(name, { target: { value: `   ${'a'.repeat(60)}` } });
    expect(name).toHaveValue('a'.repeat(50));
  });

  it('counts the remaining remark characters up to 200', () => {
    renderDialog();
    const remarks = screen.getByLabelText('Remarks');
    expect(remarks).toHaveAttribute('maxlength', '200');
    fireEvent.change(remarks, { target: { value: 'x'.repeat(199) } });
    expect(screen.getByText('1 character remaining')).toBeInTheDocument();
  });

  it('creates the subscription and shows it', async () => {
    const { api, name, subscribe, router, onClose } = renderDialog();
    fireEvent.change(name, { target: { value: 'Analytics 2026' } });
    fireEvent.change(screen.getByLabelText('Remarks'), { target: { value: 'Finance' } });
    expect(subscribe).toBeEnabled();
    fireEvent.click(subscribe);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/subscriptions/${NEW_ID}`));
    expect(onClose).toHaveBeenCalled();
    expect(api.bodiesOf('POST /api/subscription/create')).toEqual([
      { subscription_name: 'Analytics 2026', remark: 'Finance', subscription_type: 'PREPAID' },
    ]);
  });

  it('shows a name already in use under the name', async () => {
    const { name, subscribe } = renderDialog(() => errorResponse(409, 'SUBSCRIPTION_NAME_TAKEN', MESSAGES.subscriptionNameTaken));
    fireEvent.change(name, { target: { value: 'Analytics' } });
    fireEvent.click(subscribe);
    expect(await screen.findByText(MESSAGES.subscriptionNameTaken)).toBeInTheDocument();
    expect(subscribe).toBeDisabled();
    fireEvent.change(name, { target: { value: 'Analytics two' } });
    expect(screen.queryByText(MESSAGES.subscriptionNameTaken)).not.toBeInTheDocument();
  });

  it('says the subscription could not be added when the server does not answer', async () => {
    const { name, subscribe } = renderDialog(() => {
      throw new TypeError('Failed to fetch');
    });
    fireEvent.change(name, { target: { value: 'Analytics' } });
    fireEvent.click(subscribe);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.subscriptionCreateFailed);
  });
});
