import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { METERING_MESSAGES, type CreditAnalysis } from '@kumo/contract';
import { creditAnalysis, dailyCost, dailyUsage } from '../../../test/cost';
import { mockApi } from '../../../test/api';
import { renderRoutes } from '../../../test/render';
import { CreditAnalysisPanel } from './credit-analysis-panel';
import { costMonthOptions, utcMonthStart } from './months';

const NOW = new Date('2026-11-20T10:00:00Z');
const NOVEMBER = creditAnalysis(
  '2026-11',
  [
    dailyCost('2026-11-01'),
    dailyCost('2026-11-02', { BI_SERVER: 12.5, QUERY_ENGINES: 3.25, PERSISTENT_STORAGE: 0.4 }),
    dailyCost('2026-11-03'),
  ],
  [
    dailyUsage('2026-11-01'),
    dailyUsage('2026-11-02', { BI_SERVER: 50, QUERY_ENGINES: 13, PERSISTENT_STORAGE: 0.55 }, { free_build_up_to: 4 }),
    dailyUsage('2026-11-03', {}, { free_build_up_to: 4 }),
  ],
);
const OCTOBER = creditAnalysis('2026-10', [dailyCost('2026-10-01'), dailyCost('2026-10-02')]);

const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);
const monthInput = () => screen.getByRole('combobox', { name: 'Month' });

function renderPanel(fetchAnalysis: (startDate: string) => Promise<CreditAnalysis>) {
  const panel = (
    <CreditAnalysisPanel
      queryKey={['test-cost']}
      fetchAnalysis={fetchAnalysis}
      exportPath="/api/cluster/consumption/export/abc"
      subject="Alpha"
      now={NOW}
    />
  );
  renderRoutes([{ path: '/', element: panel }], '/');
}

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:cost');
  URL.revokeObjectURL = vi.fn();
});
// Lazy charts and big tables render slowly on a busy machine.
configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

describe('months of the cost pickers', () => {
  it('offers the current UTC month and the two before it, across a year end', () => {
    expect(costMonthOptions(new Date('2026-01-31T23:30:00Z'))).toEqual([
      { value: '2026-01-01T00:00:00', label: 'Jan, 2026' },
      { value: '2025-12-01T00:00:00', label: 'Dec, 2025' },
      { value: '2025-11-01T00:00:00', label: 'Nov, 2025' },
    ]);
    expect(utcMonthStart(new Date('2026-03-01T00:00:00Z'))).toBe('2026-03-01T00:00:00');
  });
});

// Role queries over whole tables are slow on a busy machine.
describe('cost analysis tab', { timeout: 30_000 }, () => {
  it('shows the cost table from the first day with usage, with -- for zero and the month total, and the consumption columns of the spec', async () => {
    renderPanel(async () => NOVEMBER);
    const cost = await screen.findByRole('table', { name: 'Daily cost of Alpha, Nov, 2026' });
    const rows = within(cost).getAllByRole('row');
    // Nov 1 had no usage at all: no row of '--' for it, but a word that the table starts later.
    expect(rows.map(cellsOf)).toEqual([
      ['Date', 'Compute Services', 'Storage Services', 'Total Cost'],
      ['Nov 2', '$15.75', '$0.40', '$16.15'],
      ['Nov 3', '--', '--', '--'],
      ['Total', '$15.75', '$0.40', '$16.15'],
    ]);
    expect(screen.getByText('No usage before Nov 2.')).toBeInTheDocument();

    const consumption = screen.getByRole('table', { name: 'Daily consumption of Alpha, Nov, 2026' });
    const headers = within(consumption)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.replace(/\s*\(.*\)$/, ''));
    expect(headers).toEqual([
      'Date',
      'BI Server',
      'Query Engine',
      'Build',
      'Peripheral',
      'Cache Storage',
      'Persistent Storage',
      'Storage API Requests',
      'Disaster Recovery',
      'Backup Data Transfer',
      'Free Build Up To',
      'Free Cache Storage Up To',
    ]);
    const [, firstDay, ...later] = within(consumption).getAllByRole('row');
    expect(cellsOf(firstDay!)).toEqual(['Nov 2', '50', '13', '--', '--', '--', '0.55', '--', '--', '--', '4', '--']);
    expect(later.map((row) => cellsOf(row)[0])).toEqual(['Nov 3']);
  });

  it('says usage cost is not available when the month holds no charge, and asks for the month picked', async () => {
    const fetchAnalysis = vi.fn(async (startDate: string) => (startDate.startsWith('2026-10') ? OCTOBER : NOVEMBER));
    renderPanel(fetchAnalysis);
    await screen.findByRole('table', { name: 'Daily cost of Alpha, Nov, 2026' });
    await userEvent.selectOptions(monthInput(), 'Oct, 2026');
    expect(await screen.findByText(METERING_MESSAGES.costUnavailable)).toBeInTheDocument();
    expect(fetchAnalysis).toHaveBeenCalledWith('2026-10-01T00:00:00', expect.anything());
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("says the spec's sentence with the server's reason under it when the analysis cannot be loaded", async () => {
    renderPanel(async () => {
      throw new Error('Subscription not found.');
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(METERING_MESSAGES.costLoadFailed)).toBeInTheDocument();
    expect(within(alert).getByText('Subscription not found.')).toBeInTheDocument();
  });

  it('opens the cost table full screen', async () => {
    renderPanel(async () => NOVEMBER);
    await screen.findByRole('table', { name: /Daily cost/ });
    await userEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('table', { name: 'Daily cost of Alpha, Nov, 2026' })).toBeInTheDocument();
  });

  it('downloads the cost and consumption CSVs of the month from the export endpoint', async () => {
    const urls: string[] = [];
    mockApi({
      'GET /api/cluster/consumption/export/abc': (_body, init) => {
        void init;
        return new Response('date,total\n', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="alpha-cost.csv"' } });
      },
    });
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>;
    renderPanel(async () => NOVEMBER);
    await screen.findByRole('table', { name: /Daily cost/ });
    await userEvent.click(screen.getByRole('button', { name: 'Cost CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Consumption CSV' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    for (const [input] of fetchMock.mock.calls) urls.push(String(input));
    expect(urls).toEqual([
      '/api/cluster/consumption/export/abc?startDate=2026-11-01T00%3A00%3A00&table=cost',
      '/api/cluster/consumption/export/abc?startDate=2026-11-01T00%3A00%3A00&table=consumption',
    ]);
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledTimes(2));
  });
});
