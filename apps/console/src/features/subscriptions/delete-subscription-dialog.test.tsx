import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FREE_CREDITS_FORFEITED,
  MESSAGES,
  subscriptionHasClustersMessage,
  type DeleteSubscriptionError,
  type Subscription,
} from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { subscription } from '../../../test/money';
import { renderRoutes } from '../../../test/render';
import { DeleteSubscriptionDialog } from './delete-subscription-dialog';

afterEach(() => vi.unstubAllGlobals());

const FUNDED = subscription({ total_amount: 150, balance: 150, credits: 50 });
const OTHER = subscription({ subscription_id: '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60', subscription_name: 'Staging', credits: 0 });
const DELETE = `DELETE /api/subscription/delete/${FUNDED.subscription_id}`;

function renderDialog(list: Subscription[]) {
  const api = mockApi({
    'GET /api/subscription/list': () => jsonResponse(200, list),
    [DELETE]: () => jsonResponse(200, { message: MESSAGES.subscriptionFundsTransferred, transferred_amount: 100 }),
  });
  renderRoutes(
    [
      { path: '/', element: <DeleteSubscriptionDialog subscription={FUNDED} onClose={() => undefined} /> },
      { path: '/subscriptions', element: <p>Subscriptions page</p> },
    ],
    '/',
  );
  return api;
}

describe('deleting a subscription that holds paid funds', () => {
  it('moves the paid funds to the subscription chosen, and says free credits are forfeited', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const api = renderDialog([FUNDED, OTHER]);
    expect(await screen.findByText(/holds \$100\.00 of paid funds/)).toBeInTheDocument();
    expect(screen.getByText(FREE_CREDITS_FORFEITED)).toBeInTheDocument();
    const confirm = screen.getByRole('button', { name: 'Move funds and delete' });
    expect(confirm).toBeDisabled();

    await user.click(screen.getByPlaceholderText('Choose a subscription'));
    await user.click(await screen.findByRole('option', { name: 'Staging' }));
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    expect(await screen.findByText('Subscriptions page')).toBeInTheDocument();
    const call = api.fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    const url = new URL(String(call![0] instanceof Request ? call![0].url : call![0]), 'http://localhost');
    expect(url.searchParams.get('transfer_to')).toBe(OTHER.subscription_id);
  });

  it('refuses when there is no other subscription to receive them', async () => {
    renderDialog([FUNDED]);
    expect(await screen.findByRole('alert')).toHaveTextContent('no other subscription to move them to');
    expect(screen.getByRole('button', { name: 'Move funds and delete' })).toBeDisabled();
    expect(screen.queryByPlaceholderText('Choose a subscription')).not.toBeInTheDocument();
  });
});

describe('deleting a subscription that still has clusters', () => {
  const ALPHA = { deployment_id: '0d5f8a6e-1b2c-4d3e-8f4a-5b6c7d8e9f01', cluster_name: 'Alpha' };
  const BETA = { deployment_id: '1e6a9b7f-2c3d-4e5f-9a0b-6c7d8e9f0a12', cluster_name: 'Beta' };

  function renderWith(subject: Subscription, refusal?: DeleteSubscriptionError) {
    const api = mockApi({
      'GET /api/subscription/list': () => jsonResponse(200, [subject]),
      [`DELETE /api/subscription/delete/${subject.subscription_id}`]: () =>
        refusal ? jsonResponse(422, refusal) : jsonResponse(200, { message: MESSAGES.subscriptionDeleted, transferred_amount: 0 }),
    });
    renderRoutes(
      [
        { path: '/', element: <DeleteSubscriptionDialog subscription={subject} onClose={() => undefined} /> },
        { path: '/clusters/:subscriptionId/:deploymentId', element: <p>Cluster page</p> },
      ],
      '/',
    );
    return api;
  }

  it('names them with links to their pages and offers no deletion', async () => {
    const subject = subscription({
      credits: 1734,
      clusters: [
        { ...ALPHA, status: 'ONLINE' },
        { ...BETA, status: 'FAILED' },
      ],
    });
    const api = renderWith(subject);
    expect(await screen.findByRole('alert')).toHaveTextContent(subscriptionHasClustersMessage(['Alpha', 'Beta']));
    expect(screen.getByRole('link', { name: 'Alpha' })).toHaveAttribute(
      'href',
      `/clusters/${subject.subscription_id}/${ALPHA.deployment_id}`,
    );
    expect(screen.getByRole('link', { name: 'Beta' })).toHaveAttribute(
      'href',
      `/clusters/${subject.subscription_id}/${BETA.deployment_id}`,
    );
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(api.fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
  });

  it('lists the clusters the server names when it refuses, and a link leads to the cluster', async () => {
    const user = userEvent.setup();
    // The list had not seen the cluster created a moment ago; the server had.
    const subject = subscription({ credits: 1734, clusters: [] });
    const message = subscriptionHasClustersMessage(['Beta']);
    renderWith(subject, { errorDetails: { error_code: 'SUBSCRIPTION_HAS_CLUSTERS', error_message: message }, clusters: [BETA] });

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await user.click(screen.getByRole('link', { name: 'Beta' }));
    expect(await screen.findByText('Cluster page')).toBeInTheDocument();
  });
});
