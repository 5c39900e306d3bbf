import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { subscription } from '../../../test/money';
import { landed, renderRoutes } from '../../../test/render';
import { HomePage } from './home-page';

afterEach(() => vi.unstubAllGlobals());

function renderHome(state?: unknown, subscriptions: unknown[] = []) {
  mockApi({ 'GET /api/subscription/list': () => jsonResponse(200, subscriptions) });
  return renderRoutes(
    [
      { path: '/', element: <HomePage clustersCard={<p>Clusters card</p>} /> },
      { path: '/clusters', element: <p>Clusters page</p> },
      landed('/subscriptions'),
    ],
    { pathname: '/', state },
  );
}

describe('home', () => {
  it('shows the welcome dialog with three steps after a sign-up', () => {
    renderHome({ sign_up: true });
    const dialog = screen.getByRole('dialog', { name: 'Welcome to Kumo Analytics Cloud' });
    for (const step of ['Add funds to a subscription', 'Deploy clusters', 'Add users and share roles']) {
      expect(within(dialog).getByText(step)).toBeInTheDocument();
    }
  });

  it('promises the sign-up credits to a new customer, and not to a person who joined by invitation', () => {
    renderHome({ sign_up: true });
    expect(screen.getByRole('dialog')).toHaveTextContent('your first one comes with $500 of free credits');
    cleanup();
    renderHome({ sign_up: true, invited: true });
    const dialog = screen.getByRole('dialog', { name: 'Welcome to Kumo Analytics Cloud' });
    expect(dialog).not.toHaveTextContent(/\$500|free credits|first subscription|your first one/i);
    expect(dialog).not.toHaveTextContent('from an empty account');
    for (const step of ['Check the subscriptions', 'Deploy clusters', 'Add users and share roles']) {
      expect(within(dialog).getByText(step)).toBeInTheDocument();
    }
  });

  it('clears the sign-up flag when the dialog closes, so a reload does not show it again', async () => {
    const { router } = renderHome({ sign_up: true });
    await userEvent.click(screen.getByRole('button', { name: 'Get started' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.state).toBeNull();
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('does not greet a returning user with the dialog', () => {
    renderHome({ sign_up: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the clusters card it is given', () => {
    renderHome();
    expect(screen.getByText('Clusters card')).toBeInTheDocument();
  });

  it('offers quick links and documentation in new tabs', async () => {
    renderHome();
    await screen.findByText('No subscriptions yet.');
    for (const [name, href] of [
      ['Cost Analysis', '/cost-analysis'],
      ['Subscriptions', '/subscriptions'],
      ['Clusters', '/clusters'],
      ['Users', '/users'],
    ]) {
      expect(screen.getByRole('link', { name: new RegExp(`^${name}`) })).toHaveAttribute('href', href);
    }
    const guides = screen.getAllByRole('link', { name: /opens in a new tab/ });
    expect(guides).toHaveLength(4);
    for (const guide of guides) {
      expect(guide).toHaveAttribute('target', '_blank');
      expect(guide.getAttribute('href')).toMatch(/^https:\/\/docs\.kumo\.cloud\//);
    }
  });

  it('shows nothing below the heading until the subscriptions are in, then the minimum-balance banner and the cards at once', async () => {
    renderHome(undefined, [subscription({ subscription_name: 'Staging', total_amount: 20.5 })]);
    expect(screen.getByRole('heading', { name: 'Home' })).toBeVisible();
    expect(screen.getByLabelText('Loading home')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Cost Analysis/ })).not.toBeInTheDocument();

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(MESSAGES.minimumBalance);
    expect(within(banner).getByRole('link', { name: 'Staging ($20.50)' })).toBeVisible();
    expect(screen.getByRole('link', { name: /^Cost Analysis/ })).toBeVisible();
    expect(screen.queryByLabelText('Loading home')).not.toBeInTheDocument();
  });

  it('points an account without subscriptions to the subscriptions page', async () => {
    renderHome();
    expect(await screen.findByText('No subscriptions yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Subscriptions' })).toHaveAttribute('href', '/subscriptions');
  });
});
