import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, permissionsFor } from '@kumo/contract';
import { CUSTOMER_ID, changeRatesButton, rateCard } from '../../../../test/admin-customers';
import { jsonResponse, mockApi } from '../../../../test/api';
import { renderRoutes } from '../../../../test/render';
import { userDetail } from '../../../../test/users';
import { saveTokens, saveUser } from '../../../lib/session';
import { formatDateTime } from '../../../lib/dates';
import { RatesTab } from './rates-tab';

vi.setConfig({ testTimeout: 20_000 });

const EPOCH = '1970-01-01T00:00:00.000Z';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const FUTURE = `${day(2)}T00:00:00.000Z`;

function renderRates(handlers: Parameters<typeof mockApi>[0] = {}) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_ADMIN', accounts: [], ownerEmailId: null, permissions: permissionsFor('SYSTEM_ADMIN') }));
  const api = mockApi({
    [`GET /api/admin/current-resource-rate/${CUSTOMER_ID}`]: () => jsonResponse(200, { ...rateCard(), effective_date: EPOCH }),
    [`GET /api/admin/service-rate-history/${CUSTOMER_ID}`]: () =>
      jsonResponse(200, {
        content: [
          { start_end: `${FUTURE}_`, start_date: FUTURE, end_date: null, rates: [{ dimension: 'BI_SERVER', rate: 0.1, free_trial: 0 }] },
          {
            start_end: `_${FUTURE}`,
            start_date: EPOCH,
            end_date: FUTURE,
            rates: [{ dimension: 'BI_SERVER', rate: 0.0725, free_trial: 0 }],
          },
        ],
        totalPages: 1,
      }),
    ...handlers,
  });
  renderRoutes([{ path: '/admin/customers/:userId', element: <RatesTab userId={CUSTOMER_ID} /> }], `/admin/customers/${CUSTOMER_ID}`);
  return api;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('service rates tab', () => {
  it('shows rates with two decimals at least, the first rates as since the start and a future period as scheduled', async () => {
    renderRates();
    const current = await screen.findByRole('table', { name: 'Current rates' });
    expect(within(current).getByRole('row', { name: /BI Server \$0\.50 / })).toBeInTheDocument();
    expect(within(current).getByRole('row', { name: /Cache Storage \$0\.10 / })).toBeInTheDocument();
    // Free build is given in hours of the build node, not in the core-hours its rate is per.
    expect(within(current).getByRole('row', { name: /Build \$0\.30 per core per hour 10 build hours/ })).toBeInTheDocument();
    expect(within(current).getByRole('row', { name: /Cache Storage \$0\.10 per GB-month 50 GB-month/ })).toBeInTheDocument();
    expect(screen.getByText('In force since the start')).toBeInTheDocument();
    expect(screen.queryByText(/1970/)).not.toBeInTheDocument();

    const history = await screen.findByRole('table', { name: 'Rate history' });
    expect(within(history).getByText(`From ${formatDateTime(FUTURE)} (scheduled)`)).toBeInTheDocument();
    expect(within(history).getByText(`From the start to ${formatDateTime(FUTURE)}`)).toBeInTheDocument();
    expect(within(history).getByText('BI Server $0.10')).toBeInTheDocument();
    expect(within(history).getByText('BI Server $0.0725')).toBeInTheDocument();
    expect(history).not.toHaveTextContent('– now');
    expect(screen.getByRole('button', { name: 'Change Service Rates' })).toBeEnabled();
  });

  it('refuses a past effective date under the field, and shows the server refusing a date under the field too', async () => {
    renderRates({
      'POST /api/admin/action': () =>
        jsonResponse(400, {
          errorDetails: { error_code: 'VALIDATION_FAILED', error_message: 'The request is not valid.' },
          field_errors: { effective_date: ADMIN_MESSAGES.effectiveDateInvalid },
        }),
    });
    await userEvent.click(await changeRatesButton());
    const dialog = await screen.findByRole('dialog', { name: 'Change Service Rates' });
    const bi = within(dialog).getByRole('textbox', { name: 'BI Server' });
    await userEvent.clear(bi);
    await userEvent.type(bi, '0.55');
    const change = within(dialog).getByRole('button', { name: 'Change' });
    expect(change).toBeEnabled();

    const date = within(dialog).getByLabelText('Effective from');
    fireEvent.change(date, { target: { value: day(-3) } });
    fireEvent.blur(date);
    expect(await within(dialog).findByText(ADMIN_MESSAGES.effectiveDateInvalid)).toBeInTheDocument();
    expect(change).toBeDisabled();

    fireEvent.change(date, { target: { value: day(1) } });
    await waitFor(() => expect(change).toBeEnabled());
    await userEvent.click(change);
    expect(await within(dialog).findByText(ADMIN_MESSAGES.effectiveDateInvalid)).toBeInTheDocument();
    expect(within(dialog).queryByText('The request is not valid.')).not.toBeInTheDocument();
  });
});
