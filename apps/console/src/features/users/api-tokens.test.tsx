import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_TOKEN_MESSAGES, type ApiToken } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { saveTokens, saveUser } from '../../lib/session';
import { userDetail } from '../../../test/users';
import { ApiTokens } from './api-tokens';

const SECRET = `kumo_pat_${'A1b2'.repeat(10)}xyz`;

const NIGHTLY: ApiToken = {
  token_id: '6f1c1b8e-3c1a-4c55-9a57-0d7d1f1b2a01',
  name: 'nightly-stop',
  scope: 'WRITE',
  prefix: 'kumo_pat_A1b2',
  created_at: '2026-11-01T08:00:00.000Z',
  expires_at: null,
  allowed_ips: ['203.0.113.0/24'],
  last_used_at: '2026-11-20T18:00:00.000Z',
  last_used_ip: '203.0.113.9',
};

function renderTokens(initial: ApiToken[] = [NIGHTLY]) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail());
  let current = initial;
  const api = mockApi({
    'GET /api/user/api-tokens': () => jsonResponse(200, current),
    'POST /api/user/api-tokens': (body) => {
      const request = body as { name: string; scope: 'READ' | 'WRITE'; allowed_ips: string[] };
      const created = { ...NIGHTLY, token_id: '6f1c1b8e-3c1a-4c55-9a57-0d7d1f1b2a02', name: request.name, scope: request.scope };
      current = [{ ...created, last_used_at: null, last_used_ip: null }, ...current];
      return jsonResponse(200, { ...created, allowed_ips: request.allowed_ips, token: SECRET });
    },
    'DELETE /api/user/api-tokens/6f1c1b8e-3c1a-4c55-9a57-0d7d1f1b2a01': () => {
      current = current.filter((token) => token.token_id !== NIGHTLY.token_id);
      return jsonResponse(200, { message: API_TOKEN_MESSAGES.revoked });
    },
  });
  renderRoutes(
    [
      {
        path: '/users',
        element: (
          <>
            <Notifications />
            <ApiTokens />
          </>
        ),
      },
    ],
    '/users',
  );
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe('Users → API tokens', () => {
  it('lists each token with its scope, prefix and last use, never a secret', async () => {
    renderTokens();
    const row = await screen.findByRole('listitem', { name: 'API token nightly-stop' });
    expect(within(row).getByText('Write')).toBeInTheDocument();
    expect(within(row).getByText('kumo_pat_A1b2…')).toBeInTheDocument();
    expect(within(row).getByText(/Last used .* from 203\.0\.113\.9/)).toBeInTheDocument();
    expect(within(row).getByText(/Never expires/)).toBeInTheDocument();
  });

  it('creates a token from the form and shows its secret once, with a copy button', async () => {
    const user = userEvent.setup();
    const api = renderTokens([]);
    await screen.findByText('You have no API tokens in this account.');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'office-hours');
    await user.click(within(dialog).getByRole('radio', { name: /^Write/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Allowed addresses/ }), '10.0.0.0/33');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText(API_TOKEN_MESSAGES.cidrInvalid)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/api-tokens')).toHaveLength(0);

    await user.clear(within(dialog).getByRole('textbox', { name: /Allowed addresses/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Allowed addresses/ }), '203.0.113.0/24{enter}2001:db8::/32');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('dialog', { name: 'Copy your API token' });
    expect(within(shown).getByText(SECRET)).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/user/api-tokens')).toEqual([
      { name: 'office-hours', scope: 'WRITE', expires_in_days: 90, allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] },
    ]);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
    expect(await screen.findByRole('listitem', { name: 'API token office-hours' })).toBeInTheDocument();
  });

  it('revokes a token after a confirmation', async () => {
    const user = userEvent.setup();
    const api = renderTokens();
    await user.click(await screen.findByRole('button', { name: 'Revoke the API token nightly-stop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    expect(api.fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(API_TOKEN_MESSAGES.revoked)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'API token nightly-stop' })).not.toBeInTheDocument());
  });
});
