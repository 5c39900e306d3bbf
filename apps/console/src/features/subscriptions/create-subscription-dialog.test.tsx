import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { subscription } from '../../../test/money';
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
  return { ...view, api, onClose, name, subscribe, user: userEvent.setup() };
}

// Typing key by key is slower than setting values, and this machine is shared: room for it.
describe('new subscription', { timeout: 15_000 }, () => {
  it('offers the prepaid plan only', () => {
    renderDialog();
    expect(screen.getByDisplayValue('Prepaid')).toHaveAttribute('readonly');
  });

  it('says the name is required once the field is left empty, and disables Subscribe while it shows', async () => {
    const { name, subscribe, user } = renderDialog();
    await user.click(name);
    await user.tab();
    expect(screen.getByText(MESSAGES.subscriptionNameRequired)).toBeInTheDocument();
    expect(subscribe).toBeDisabled();
  });

  it.each(['ab', '1abc', 'ab_c', 'abc!'])('shows the format message for %j', async (value) => {
    const { name, subscribe, user } = renderDialog();
    await user.type(name, value);
    expect(screen.getByText(MESSAGES.subscriptionNameFormat)).toBeInTheDocument();
    expect(subscribe).toBeDisabled();
  });

  it('keeps the name within 50 characters and without leading spaces', async () => {
    const { name, user } = renderDialog();
    await user.type(name, '   ab');
    expect(name).toHaveValue('ab');
    await user.paste('c'.repeat(60));
    expect(name).toHaveValue(`ab${'c'.repeat(48)}`);
  });

  it('counts the remaining remark characters up to 200', async () => {
    const { user } = renderDialog();
    const remarks = screen.getByLabelText('Remarks');
    expect(remarks).toHaveAttribute('maxlength', '200');
    await user.click(remarks);
    await user.paste('x'.repeat(199));
    expect(screen.getByText('1 character remaining')).toBeInTheDocument();
  });

  it('creates the subscription and shows it', async () => {
    const { api, name, subscribe, router, onClose, user } = renderDialog();
    await user.type(name, 'Analytics 2026');
    await user.type(screen.getByLabelText('Remarks'), 'Finance');
    expect(subscribe).toBeEnabled();
    await user.click(subscribe);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/subscriptions/${NEW_ID}`));
    expect(onClose).toHaveBeenCalled();
    expect(api.bodiesOf('POST /api/subscription/create')).toEqual([
      { subscription_name: 'Analytics 2026', remark: 'Finance', subscription_type: 'PREPAID' },
    ]);
  });

  it('shows a name already in use under the name', async () => {
    const { name, subscribe, user } = renderDialog(() => errorResponse(409, 'SUBSCRIPTION_NAME_TAKEN', MESSAGES.subscriptionNameTaken));
    await user.type(name, 'Analytics');
    await user.click(subscribe);
    expect(await screen.findByText(MESSAGES.subscriptionNameTaken)).toBeInTheDocument();
    expect(subscribe).toBeDisabled();
    await user.type(name, ' two');
    expect(screen.queryByText(MESSAGES.subscriptionNameTaken)).not.toBeInTheDocument();
  });

  it('says the subscription could not be added when the server does not answer', async () => {
    const { name, subscribe, user } = renderDialog(() => {
      throw new TypeError('Failed to fetch');
    });
    await user.type(name, 'Analytics');
    await user.click(subscribe);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.subscriptionCreateFailed);
  });
});

describe('sign-up credits notice', () => {
  function renderWithSubscriptions(existing: ReturnType<typeof subscription>[]) {
    mockApi({ 'GET /api/subscription/list': () => jsonResponse(200, existing) });
    renderRoutes([{ path: '/subscriptions', element: <CreateSubscriptionDialog opened onClose={vi.fn()} /> }], '/subscriptions');
  }

  it('says the first subscription gets $500 of free credits expiring in 30 days', async () => {
    renderWithSubscriptions([]);
    const notice = await screen.findByRole('note');
    expect(notice).toHaveTextContent(MESSAGES.freeCreditsFirstSubscription);
    expect(notice).toHaveTextContent('$500');
    expect(notice).toHaveTextContent('30 days');
  });

  it('says a later subscription gets no sign-up credits', async () => {
    renderWithSubscriptions([subscription()]);
    expect(await screen.findByRole('note')).toHaveTextContent(MESSAGES.noFreeCreditsLaterSubscription);
    expect(screen.queryByText(MESSAGES.freeCreditsFirstSubscription)).not.toBeInTheDocument();
  });
});
