import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_MESSAGES, type Webhook } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { saveTokens, saveUser } from '../../lib/session';
import { userDetail } from '../../../test/users';
import { nextWebhooksReading } from './api/webhooks';
import { Webhooks } from './webhooks';

const SECRET = `whsec_${'0a1b2c3d'.repeat(8)}`;
const HOOK_ID = '7a2d0c55-2f0e-4c61-9d3b-5e8f1a2b3c01';
const NEW_ID = '7a2d0c55-2f0e-4c61-9d3b-5e8f1a2b3c02';
const TEST_EVENT_ID = '0b7c1d2e-3f40-4a51-8b62-7c8d9e0f1a20';

const attempt = (status_code: number | null, error: string | null = null) => ({
  at: '2026-11-20T18:00:05.000Z',
  status_code,
  error,
  duration_ms: 120,
});

const OPS: Webhook = {
  webhook_id: HOOK_ID,
  url: 'https://hooks.example.com/kumo',
  events: ['cluster.status_changed', 'budget.threshold_reached'],
  created_at: '2026-11-01T08:00:00.000Z',
  deliveries: [
    {
      event_id: '0b7c1d2e-3f40-4a51-8b62-7c8d9e0f1a01',
      type: 'cluster.status_changed',
      created_at: '2026-11-20T18:00:00.000Z',
      state: 'DELIVERED',
      next_attempt_at: null,
      attempts: [attempt(204)],
    },
    {
      event_id: '0b7c1d2e-3f40-4a51-8b62-7c8d9e0f1a02',
      type: 'budget.threshold_reached',
      created_at: '2026-11-19T10:00:00.000Z',
      state: 'PENDING',
      next_attempt_at: '2026-11-19T10:08:00.000Z',
      attempts: [attempt(503), attempt(null, 'connect ECONNREFUSED')],
    },
    {
      event_id: '0b7c1d2e-3f40-4a51-8b62-7c8d9e0f1a03',
      type: 'cluster.status_changed',
      created_at: '2026-11-10T09:00:00.000Z',
      state: 'FAILED',
      next_attempt_at: null,
      attempts: [attempt(null, 'The endpoint did not answer within 10 seconds.')],
    },
  ],
};

function renderWebhooks(initial: Webhook[] = [OPS], answers: { create?: () => Response } = {}) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail());
  let current = initial;
  const api = mockApi({
    'GET /api/account/webhooks': () => jsonResponse(200, current),
    'POST /api/account/webhooks': (body) => {
      if (answers.create) return answers.create();
      const request = body as { url: string; events: Webhook['events'] };
      current = [...current, { webhook_id: NEW_ID, ...request, created_at: '2026-11-21T08:00:00.000Z', deliveries: [] }];
      return jsonResponse(200, { webhook_id: NEW_ID, secret: SECRET });
    },
    [`DELETE /api/account/webhooks/${HOOK_ID}`]: () => {
      current = current.filter((webhook) => webhook.webhook_id !== HOOK_ID);
      return jsonResponse(200, { message: WEBHOOK_MESSAGES.deleted });
    },
    [`POST /api/account/webhooks/${HOOK_ID}/test`]: () => {
      const queued = { event_id: TEST_EVENT_ID, type: 'webhook.test', created_at: '2026-11-21T09:00:00.000Z', state: 'PENDING' as const };
      current = current.map((webhook) => ({
        ...webhook,
        deliveries: [{ ...queued, next_attempt_at: queued.created_at, attempts: [] }, ...webhook.deliveries],
      }));
      return jsonResponse(200, { event_id: TEST_EVENT_ID, message: WEBHOOK_MESSAGES.testQueued });
    },
  });
  renderRoutes(
    [
      {
        path: '/users',
        element: (
          <>
            <Notifications />
            <Webhooks />
          </>
        ),
      },
    ],
    '/users',
  );
  return api;
}

const rowOf = (url: string) => screen.findByRole('listitem', { name: `Webhook ${url}` });

afterEach(() => vi.unstubAllGlobals());

describe('Users → Webhooks', () => {
  it('says so when the account has no endpoint, and offers to add one', async () => {
    renderWebhooks([]);
    expect(await screen.findByText('This account sends its events to no endpoint yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add endpoint' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('lists each endpoint with its events in words and its last deliveries: delivered, retrying, given up', async () => {
    renderWebhooks();
    const row = await rowOf(OPS.url);
    expect(within(row).getByText('Cluster status changed · Budget threshold reached')).toBeInTheDocument();
    const rows = within(row).getAllByRole('row').slice(1);
    expect(
      rows.map((line) =>
        within(line)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [expect.any(String), 'Delivered', 'HTTP 204'],
      [expect.any(String), 'Retrying', expect.stringMatching(/^HTTP 503Next try /)],
      [expect.any(String), 'Given up', 'The endpoint did not answer within 10 seconds.'],
    ]);
    expect(rows.map((line) => within(line).getByRole('rowheader').textContent)).toEqual([
      'Cluster status changed',
      'Budget threshold reached',
      'Cluster status changed',
    ]);
  });

  it("refuses an empty or malformed form with the contract's messages, before any call", async () => {
    const user = userEvent.setup();
    const api = renderWebhooks([]);
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText(WEBHOOK_MESSAGES.urlRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(WEBHOOK_MESSAGES.eventsRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }), 'no url');
    expect(await within(dialog).findByText(WEBHOOK_MESSAGES.urlInvalid)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/account/webhooks')).toHaveLength(0);
  });

  it('adds an endpoint and shows its signing secret once, with a copy button', async () => {
    const user = userEvent.setup();
    const api = renderWebhooks([]);
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    await user.click(within(dialog).getByRole('textbox', { name: /Endpoint URL/ }));
    await user.paste('https://hooks.example.com/new');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Deployment failed' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Automatic top-up failed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    const shown = await screen.findByRole('dialog', { name: 'Copy your signing secret' });
    expect(within(shown).getByText(SECRET)).toBeInTheDocument();
    expect(within(shown).getByText(/will not show it again/)).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/account/webhooks')).toEqual([
      { url: 'https://hooks.example.com/new', events: ['deployment.failed', 'top_up.failed'] },
    ]);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
    const row = await rowOf('https://hooks.example.com/new');
    expect(within(row).getByText('Nothing has been sent to this endpoint yet.')).toBeInTheDocument();
    // Opened again, the dialog starts from an empty form: the secret is never shown a second time.
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const again = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    expect(within(again).getByRole('textbox', { name: /Endpoint URL/ })).toHaveValue('');
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it("shows the server's refusal of the URL under the URL field and keeps the form open", async () => {
    const user = userEvent.setup();
    const refusal = WEBHOOK_MESSAGES.urlPrivate;
    const api = renderWebhooks([], {
      create: () =>
        jsonResponse(400, { errorDetails: { error_code: 'VALIDATION_FAILED', error_message: refusal }, field_errors: { url: refusal } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook endpoint' });
    const url = within(dialog).getByRole('textbox', { name: /Endpoint URL/ });
    await user.click(url);
    await user.paste('https://10.0.0.8/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cluster status changed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    await waitFor(() => expect(url).toHaveAccessibleDescription(expect.stringContaining(refusal)));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    // Said once, on the field, not again in an alert above the buttons.
    expect(within(dialog).getAllByText(refusal)).toHaveLength(1);
    expect(api.bodiesOf('POST /api/account/webhooks')).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Copy your signing secret' })).not.toBeInTheDocument();
  });

  it('deletes an endpoint only after a confirmation', async () => {
    const user = userEvent.setup();
    const api = renderWebhooks();
    await user.click(await screen.findByRole('button', { name: `Delete the webhook ${OPS.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    expect(within(dialog).getByText(OPS.url)).toBeInTheDocument();
    expect(api.fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete webhook' })).not.toBeInTheDocument());
    expect(api.fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: `Delete the webhook ${OPS.url}` }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete webhook' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(WEBHOOK_MESSAGES.deleted)).toBeInTheDocument();
    expect(await screen.findByText('This account sends its events to no endpoint yet.')).toBeInTheDocument();
    expect(api.fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1);
  });

  it('sends a test event: a toast says it is on its way and the delivery joins the list', async () => {
    const user = userEvent.setup();
    const api = renderWebhooks();
    const row = await rowOf(OPS.url);
    await user.click(within(row).getByRole('button', { name: `Send test event to ${OPS.url}` }));
    expect(await screen.findByText(WEBHOOK_MESSAGES.testQueued)).toBeInTheDocument();
    expect(api.bodiesOf(`POST /api/account/webhooks/${HOOK_ID}/test`)).toHaveLength(1);
    const first = await within(row).findByRole('rowheader', { name: 'Test event' });
    expect(within(first.closest('tr')!).getByText('Sending')).toBeInTheDocument();
  });

  it('reads the list again soon while a delivery awaits its first attempt, now and then while one is retried, else not', () => {
    const [delivered, retrying] = OPS.deliveries;
    const queued = { ...retrying!, attempts: [] };
    expect(nextWebhooksReading([{ ...OPS, deliveries: [delivered!] }])).toBe(false);
    expect(nextWebhooksReading([{ ...OPS, deliveries: [delivered!, retrying!] }])).toBe(15_000);
    expect(nextWebhooksReading([{ ...OPS, deliveries: [retrying!, queued] }])).toBe(3_000);
    expect(nextWebhooksReading(undefined)).toBe(false);
  });
});
