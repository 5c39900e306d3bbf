import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications, notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_ACCESS_MESSAGES, type NetworkAccessResponse } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { NetworkAccessTab } from './network-access-tab';

afterEach(() => vi.unstubAllGlobals());
afterEach(() => notifications.clean());
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 90_000 });

const ID = '00000000-0000-4000-8000-0000000000aa';
const PATH = `/api/cluster/network-access/${ID}`;
const ANYWHERE: NetworkAccessResponse = { deployment_id: ID, allow_anywhere: true, allowed: [], updated_at: null, updated_by: null };

function renderTab(put: (body: unknown) => Response = (body) => jsonResponse(200, { ...ANYWHERE, ...(body as object) })) {
  const api = mockApi({
    [`GET ${PATH}`]: () => jsonResponse(200, ANYWHERE),
    [`PUT ${PATH}`]: put,
    'GET /api/user/client-address': () => jsonResponse(200, { client_address: '203.0.113.7' }),
  });
  const { queryClient } = renderRoutes(
    [
      {
        path: '/',
        element: (
          <>
            <Notifications />
            <NetworkAccessTab deploymentId={ID} />
          </>
        ),
      },
    ],
    '/',
  );
  return { ...api, queryClient };
}

describe('network access tab', () => {
  it("warns while open to anywhere, and saves a list with the caller's address", async () => {
    const { bodiesOf } = renderTab();
    expect(await screen.findByText(NETWORK_ACCESS_MESSAGES.anywhereWarning)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save network access' })).toBeDisabled();
    await userEvent.click(screen.getByRole('radio', { name: 'Only these addresses' }));
    expect(screen.queryByText(NETWORK_ACCESS_MESSAGES.anywhereWarning)).not.toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Address or range 1' }), '2001:db8::/48');
    await userEvent.click(await screen.findByRole('button', { name: 'Add my address (203.0.113.7)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save network access' }));
    expect(await screen.findByText(NETWORK_ACCESS_MESSAGES.saved)).toBeInTheDocument();
    expect(bodiesOf(`PUT ${PATH}`)).toEqual([
      {
        allow_anywhere: false,
        allowed: [
          { cidr: '2001:db8::/48', description: '' },
          { cidr: '203.0.113.7', description: 'My address' },
        ],
      },
    ]);
  });

  it('keeps the edits under way when the list is read again and has not changed', async () => {
    const { bodiesOf, queryClient } = renderTab();
    await userEvent.click(await screen.findByRole('radio', { name: 'Only these addresses' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Address or range 1' }), '198.51.100.7');
    await act(() => queryClient.refetchQueries());
    // The answer reaches the tab in a task after the read (the query client's batching).
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(bodiesOf(`GET ${PATH}`)).toHaveLength(2);
    expect(screen.getByRole('radio', { name: 'Only these addresses' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Address or range 1' })).toHaveValue('198.51.100.7');
  });

  it("says what is wrong with a row before sending anything, and shows the server's word on a row", async () => {
    const { bodiesOf } = renderTab(() =>
      jsonResponse(400, {
        errorDetails: { error_code: 'VALIDATION_FAILED', error_message: NETWORK_ACCESS_MESSAGES.tooMany },
        field_errors: { 'allowed.0.description': NETWORK_ACCESS_MESSAGES.descriptionTooLong },
      }),
    );
    await userEvent.click(await screen.findByRole('radio', { name: 'Only these addresses' }));
    const address = screen.getByRole('textbox', { name: 'Address or range 1' });
    await userEvent.type(address, 'office');
    await userEvent.click(screen.getByRole('button', { name: 'Save network access' }));
    await waitFor(() => expect(address).toHaveAccessibleDescription(NETWORK_ACCESS_MESSAGES.cidrInvalid));
    expect(bodiesOf(`PUT ${PATH}`)).toEqual([]);

    await userEvent.clear(address);
    await userEvent.type(address, '198.51.100.7');
    await userEvent.click(screen.getByRole('button', { name: 'Save network access' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Description 1' })).toHaveAccessibleDescription(
        NETWORK_ACCESS_MESSAGES.descriptionTooLong,
      ),
    );
    expect(address).not.toHaveAccessibleDescription(NETWORK_ACCESS_MESSAGES.cidrInvalid);
  });
});
