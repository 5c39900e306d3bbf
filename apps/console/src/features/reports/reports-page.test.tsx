import { configure, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { ReportsPage } from './reports-page';

const URL_ = '/api/report/view?session=abc';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

describe('reports page', { timeout: 30_000 }, () => {
  it('shows the subscription report in a frame and ends the report session when left', async () => {
    const { fetchMock } = mockApi({
      'GET /api/user/report-url': () =>
        jsonResponse(200, {
          data: { subscription_report_url: URL_ },
          subscription_report_url: URL_,
          expires_at: '2026-11-23T18:30:00.000Z',
        }),
      'GET /api/user/report-logout': () => jsonResponse(200, { message: 'Report session ended.' }),
    });
    const { router } = renderRoutes([{ path: '/reports', element: <ReportsPage /> }, landed('/')], '/reports');
    const frame = await screen.findByTitle('Subscription report');
    expect(frame).toHaveAttribute('src', URL_);
    expect(screen.getByRole('link', { name: 'Open the report in a new tab' })).toHaveAttribute('href', URL_);
    await router.navigate('/');
    await waitFor(() => expect(fetchMock.mock.calls.map(([input]) => input as string)).toContain('/api/user/report-logout'));
  });

  it('shows the server’s error when no report address can be had', async () => {
    mockApi({
      'GET /api/user/report-url': () => errorResponse(500, 'INTERNAL_ERROR', 'Internal Server Error'),
      'GET /api/user/report-logout': () => jsonResponse(200, { message: 'ok' }),
    });
    renderRoutes([{ path: '/reports', element: <ReportsPage /> }], '/reports');
    expect(await screen.findByText('Internal Server Error')).toBeInTheDocument();
    expect(screen.queryByTitle('Subscription report')).not.toBeInTheDocument();
  });
});
