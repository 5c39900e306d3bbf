import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type SubscriptionConsumptionOverview } from '@kumo/contract';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { consumptionOverview } from '../../../test/cost';
import { subscription } from '../../../test/money';
import { landed, renderRoutes } from '../../../test/render';
import { HomePage } from './home-page';

afterEach(() => vi.unstubAllGlobals());

const ANALYTICS = subscription();
const STAGING = subscription({ subscription_id: '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60', subscription_name: 'Staging', total_amount: 20.5 });

function renderHome(list: unknown, overview: SubscriptionConsumptionOverview[] = []) {
  mockApi({
    'GET /api/subscription/list': () => (Array.isArray(list) ? jsonResponse(200, list) : (list as () => Response)()),
    'GET /api/subscription/consumption/overview': () => jsonResponse(200, overview),
  });
  return renderRoutes(
    [{ path: '/', element: <HomePage clustersCard={null} /> }, landed('/subscriptions/:subscriptionId'), landed('/subscriptions')],
    '/',
  );
}

describe('home: subscriptions', () => {
  it('shows a card per subscription with its name and balance', async () => {
    renderHome([ANALYTICS, STAGING]);
    const cards = await screen.findAllByRole('listitem');
    expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(['Analytics', 'Staging']);
    expect(within(cards[0]!).getByText('Balance')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('$1,734.00')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('$20.50')).toBeInTheDocument();
  });

  it('says how long each balance lasts at the current rate, and nothing where nothing is charged', async () => {
    renderHome(
      [ANALYTICS, STAGING],
      [
        consumptionOverview({ subscription_id: ANALYTICS.subscription_id, hourly_rate: 6.55, runway_hours: 158.4 }),
        consumptionOverview({ subscription_id: STAGING.subscription_id, subscription_name: 'Staging', hourly_rate: 0, runway_hours: null }),
      ],
    );
    const cards = await screen.findAllByRole('listitem');
    expect(await within(cards[0]!).findByText('Lasts about 6 days at the current rate')).toBeInTheDocument();
    expect(within(cards[1]!).queryByText(/Lasts/)).not.toBeInTheDocument();
  });

  it('goes to a subscription from its card menu', async () => {
    const { router } = renderHome([ANALYTICS]);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Analytics' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Go to Subscription' }));
    expect(router.state.location.pathname).toBe(`/subscriptions/${ANALYTICS.subscription_id}`);
  });

  it('asks for funds while a subscription is below $100, naming it', async () => {
    renderHome([ANALYTICS, STAGING]);
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(MESSAGES.minimumBalance);
    expect(within(banner).getByRole('link', { name: 'Staging ($20.50)' })).toHaveAttribute(
      'href',
      `/subscriptions/${STAGING.subscription_id}`,
    );
    expect(within(banner).queryByText(/Analytics/)).not.toBeInTheDocument();
  });

  it('shows no banner when every balance is at least $100', async () => {
    renderHome([ANALYTICS, subscription({ subscription_id: STAGING.subscription_id, subscription_name: 'Staging', total_amount: 100 })]);
    await screen.findAllByRole('listitem');
    expect(screen.queryByText(MESSAGES.minimumBalance)).not.toBeInTheDocument();
  });

  it("shows a failed list call in place of the cards: the spec's sentence with the server's reason under it", async () => {
    renderHome(() => errorResponse(503, 'SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.subscriptionsFetchFailed)).toBeInTheDocument();
    expect(within(alert).getByText(MESSAGES.serviceUnavailable)).toBeInTheDocument();
  });
});
