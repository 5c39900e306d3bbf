import { configure, screen, within } from '@testing-library/react';
import { Notifications, notifications } from '@mantine/notifications';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTO_TOP_UP_MESSAGES, type AutoTopUp } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { autoTopUp, subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { formatDateTime } from '../../lib/dates';
import { AutoTopUpCard } from './auto-top-up-card';
import { leaveForCheckout } from './leave-for-checkout';

vi.mock('./leave-for-checkout', () => ({ leaveForCheckout: vi.fn() }));
afterEach(() => vi.unstubAllGlobals());
afterEach(() => notifications.clean());
afterEach(() => vi.mocked(leaveForCheckout).mockClear());
configure({ asyncUtilTimeout: 5000 });
// Typing key by key is slower than setting values, and this machine is shared: room for it.
vi.setConfig({ testTimeout: 20_000 });

const ANALYTICS = subscription();
const PATH = `/api/subscription/${ANALYTICS.subscription_id}/auto-top-up`;
const CARD_PATH = `/api/subscription/${ANALYTICS.subscription_id}/payment-method`;
const VISA = { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2030 };
const ACTIVE = autoTopUp({
  enabled: true,
  status: 'ACTIVE',
  payment_method: VISA,
  threshold_amount: 25,
  top_up_amount: 200,
  monthly_cap: 1000,
  month_to_date: 400,
  last_attempt: { at: '2026-11-20T10:00:00.000Z', amount: 200, outcome: 'SUCCEEDED', message: null },
});
const PAUSED = autoTopUp({
  ...ACTIVE,
  status: 'PAUSED_AFTER_FAILURE',
  last_attempt: { at: '2026-11-22T10:00:00.000Z', amount: 200, outcome: 'DECLINED', message: 'Your card was declined.' },
});

function LocationProbe() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function renderCard(current: AutoTopUp, handlers: Parameters<typeof mockApi>[0] = {}, entry = '/') {
  const api = mockApi({ [`GET ${PATH}`]: () => jsonResponse(200, current), ...handlers });
  const onTopUpNow = vi.fn();
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            {/* The console's toast host, so a test sees the toast a person would. */}
            <Notifications />
            <AutoTopUpCard subscription={ANALYTICS} onTopUpNow={onTopUpNow} />
            <LocationProbe />
          </>
        ),
      },
    ],
    entry,
  );
  return { api, onTopUpNow, user: userEvent.setup() };
}

const field = (label: string) => screen.getByRole('group', { name: label });

async function openSettings(user: ReturnType<typeof userEvent.setup>, button = 'Edit settings') {
  await user.click(await screen.findByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: 'Automatic top-up settings' });
}

describe('the automatic top-up card', () => {
  it('is off with no card: the defaults, an offer to save a card and no Remove', async () => {
    renderCard(autoTopUp());
    expect(await screen.findByTestId('auto-top-up-status')).toHaveTextContent('Off');
    expect(screen.getByRole('region', { name: /Automatic top-up/ })).toBeInTheDocument();
    expect(field('Card')).toHaveTextContent('No card saved');
    expect(field('When the balance is under')).toHaveTextContent('$50.00');
    expect(field('Top up by')).toHaveTextContent('$100.00');
    expect(field('Monthly cap')).toHaveTextContent('$0.00 of $500.00 used this month');
    expect(field('Last attempt')).toHaveTextContent('None yet');
    expect(screen.getByRole('button', { name: 'Save a card' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove card' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("is active with the saved card, the settings, this month's use and the last top-up", async () => {
    renderCard(ACTIVE);
    expect(await screen.findByTestId('auto-top-up-status')).toHaveTextContent('Active');
    expect(field('Card')).toHaveTextContent('Visa •••• 4242, expires 04/2030');
    expect(field('When the balance is under')).toHaveTextContent('$25.00');
    expect(field('Top up by')).toHaveTextContent('$200.00');
    expect(field('Monthly cap')).toHaveTextContent('$400.00 of $1,000.00 used this month');
    expect(field('Last attempt')).toHaveTextContent(`${formatDateTime('2026-11-20T10:00:00.000Z')}: $200.00, Succeeded`);
    expect(screen.getByRole('button', { name: 'Replace card' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why it is paused, offers a top-up by hand, and resumes when the settings are saved again', async () => {
    let stored = PAUSED;
    const { api, onTopUpNow, user } = renderCard(PAUSED, {
      [`GET ${PATH}`]: () => jsonResponse(200, stored),
      [`PUT ${PATH}`]: () => jsonResponse(200, (stored = { ...PAUSED, status: 'ACTIVE' })),
    });
    expect(await screen.findByTestId('auto-top-up-status')).toHaveTextContent('Paused after a failed payment');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Automatic top-up is paused');
    expect(alert).toHaveTextContent(
      `The charge of $200.00 on ${formatDateTime('2026-11-22T10:00:00.000Z')} did not go through: Your card was declined.`,
    );
    expect(field('Last attempt')).toHaveTextContent('$200.00, Declined (Your card was declined.)');
    await user.click(within(alert).getByRole('button', { name: 'Top up now' }));
    expect(onTopUpNow).toHaveBeenCalledOnce();

    const dialog = await openSettings(user, 'Resume top-up');
    expect(within(dialog).getByText(/saving the settings with it on resumes it/)).toBeInTheDocument();
    expect(within(dialog).getByRole('switch', { name: 'Automatic top-up on' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(AUTO_TOP_UP_MESSAGES.saved)).toBeInTheDocument();
    expect(api.bodiesOf(`PUT ${PATH}`)).toEqual([
      { enabled: true, threshold_amount: '25.00', top_up_amount: '200.00', monthly_cap: '1000.00' },
    ]);
    await vi.waitFor(() => expect(screen.getByTestId('auto-top-up-status')).toHaveTextContent('Active'));
    expect(screen.queryByText('Automatic top-up is paused')).not.toBeInTheDocument();
  });

  it('cannot be switched on without a card, and says so', async () => {
    const { user } = renderCard(autoTopUp());
    const dialog = await openSettings(user);
    const toggle = within(dialog).getByRole('switch', { name: 'Automatic top-up on' });
    expect(toggle).toBeDisabled();
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(AUTO_TOP_UP_MESSAGES.paymentMethodRequired);
  });

  it("shows the API's refusal to enable without a card (422) in the dialog", async () => {
    const refused = errorResponse(422, 'PAYMENT_METHOD_REQUIRED', AUTO_TOP_UP_MESSAGES.paymentMethodRequired);
    // The card was removed elsewhere after this page read it.
    const { user } = renderCard(ACTIVE, { [`PUT ${PATH}`]: () => refused });
    const dialog = await openSettings(user);
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(AUTO_TOP_UP_MESSAGES.paymentMethodRequired);
    expect(screen.getByRole('dialog', { name: 'Automatic top-up settings' })).toBeInTheDocument();
  });

  it("says the contract's messages under the amounts and keeps Save disabled", async () => {
    const { user } = renderCard(ACTIVE);
    const dialog = await openSettings(user);
    const save = within(dialog).getByRole('button', { name: 'Save settings' });
    const threshold = within(dialog).getByRole('textbox', { name: 'When the balance is under (USD)' });
    const topUp = within(dialog).getByRole('textbox', { name: 'Top up by (USD)' });
    const cap = within(dialog).getByRole('textbox', { name: 'Monthly cap (USD)' });
    expect(threshold).toHaveValue('25.00');
    expect(save).toBeEnabled();

    await user.clear(threshold);
    await user.type(threshold, '1000000');
    expect(await within(dialog).findByText(AUTO_TOP_UP_MESSAGES.thresholdRange)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(threshold);
    await user.type(threshold, '0');
    await user.clear(topUp);
    await user.type(topUp, '0');
    expect(await within(dialog).findByText(AUTO_TOP_UP_MESSAGES.topUpRange)).toBeInTheDocument();
    await user.clear(topUp);
    await user.type(topUp, '300');
    await user.clear(cap);
    await user.type(cap, '200');
    expect(await within(dialog).findByText(AUTO_TOP_UP_MESSAGES.monthlyCapBelowTopUp)).toBeInTheDocument();
    expect(cap).toHaveAccessibleDescription(expect.stringContaining(AUTO_TOP_UP_MESSAGES.monthlyCapBelowTopUp));
    await user.clear(cap);
    await user.type(cap, '0');
    expect(await within(dialog).findByText(AUTO_TOP_UP_MESSAGES.monthlyCapRange)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(cap);
    await user.type(cap, '600');
    await vi.waitFor(() => expect(save).toBeEnabled());
  });

  it("sends the browser to the provider's page to save a card, and says why it cannot", async () => {
    let unavailable = true;
    const { user } = renderCard(autoTopUp(), {
      [`POST ${CARD_PATH}`]: () =>
        unavailable
          ? errorResponse(503, 'SERVICE_UNAVAILABLE', AUTO_TOP_UP_MESSAGES.cardsUnavailable)
          : jsonResponse(200, { redirect_url: 'http://localhost/sandbox/setup/ss_1' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Save a card' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTO_TOP_UP_MESSAGES.cardsUnavailable);
    expect(leaveForCheckout).not.toHaveBeenCalled();
    unavailable = false;
    await user.click(screen.getByRole('button', { name: 'Save a card' }));
    await vi.waitFor(() => expect(leaveForCheckout).toHaveBeenCalledWith('http://localhost/sandbox/setup/ss_1'));
  });

  it('on return from the provider reads the card back, says it was saved, once, and tidies the address', async () => {
    const { api } = renderCard(ACTIVE, {}, '/?card=saved&tab=overview');
    expect(await screen.findByText(AUTO_TOP_UP_MESSAGES.cardSaved)).toBeInTheDocument();
    expect(await screen.findByText('Visa •••• 4242, expires 04/2030')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\?tab=overview$/));
    expect(screen.getAllByText(AUTO_TOP_UP_MESSAGES.cardSaved)).toHaveLength(1);
    const [firstRead] = api.fetchMock.mock.calls[0]!;
    expect(firstRead instanceof Request ? firstRead.url : firstRead.toString()).toContain('card=saved');
  });

  it('says nothing of a card on return when the provider has not kept one', async () => {
    renderCard(autoTopUp({ payment_method: null }), {}, '/?card=saved');
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^$/));
    expect(screen.queryByText(AUTO_TOP_UP_MESSAGES.cardSaved)).not.toBeInTheDocument();
  });

  it('removes the card after asking, and turns top-up off', async () => {
    let stored = ACTIVE;
    const { api, user } = renderCard(ACTIVE, {
      [`GET ${PATH}`]: () => jsonResponse(200, stored),
      [`DELETE ${CARD_PATH}`]: () => jsonResponse(200, (stored = { ...ACTIVE, enabled: false, status: 'OFF', payment_method: null })),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove card' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(AUTO_TOP_UP_MESSAGES.cardRemoved)).toBeInTheDocument();
    expect(api.bodiesOf(`DELETE ${CARD_PATH}`)).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Save a card' })).toBeInTheDocument();
    expect(screen.getByTestId('auto-top-up-status')).toHaveTextContent('Off');
  });
});
