import { describe, expect, it } from 'vitest';
import { creditAnalysis, dailyCost, dailyUsage } from '../../../test/cost';
import { fromFirstUsage } from './first-usage';

const days = (month: ReturnType<typeof creditAnalysis>) => ({
  daily: month.daily.map((day) => day.date),
  consumption: month.consumption.map((day) => day.date),
});

describe('daily tables from the first day with usage', () => {
  it('leaves out the days before the first charge or use, keeping later days without any', () => {
    const month = creditAnalysis(
      '2026-11',
      [dailyCost('2026-11-01'), dailyCost('2026-11-02'), dailyCost('2026-11-03', { PERSISTENT_STORAGE: 0.1 }), dailyCost('2026-11-04')],
      [dailyUsage('2026-11-01'), dailyUsage('2026-11-02'), dailyUsage('2026-11-03', { PERSISTENT_STORAGE: 2 }), dailyUsage('2026-11-04')],
    );
    const shown = fromFirstUsage(month);
    expect(shown.firstDay).toBe('2026-11-03');
    expect(days(shown.analysis)).toEqual({ daily: ['2026-11-03', '2026-11-04'], consumption: ['2026-11-03', '2026-11-04'] });
    expect(shown.analysis.total).toBe(month.total);
  });

  it('counts free units used as usage though they cost nothing', () => {
    const month = creditAnalysis(
      '2026-11',
      [dailyCost('2026-11-01'), dailyCost('2026-11-02')],
      [dailyUsage('2026-11-01'), dailyUsage('2026-11-02', { DATA_PROCESS: 3 }, { free_build_up_to: 3 })],
    );
    expect(fromFirstUsage(month).firstDay).toBe('2026-11-02');
  });

  it('keeps a month that has usage from its first day, or none at all, as it is', () => {
    const fromStart = creditAnalysis('2026-11', [dailyCost('2026-11-01', { BI_SERVER: 1 }), dailyCost('2026-11-02')]);
    expect(fromFirstUsage(fromStart)).toEqual({ analysis: fromStart, firstDay: null });
    const none = creditAnalysis('2026-10', [dailyCost('2026-10-01'), dailyCost('2026-10-02')]);
    expect(fromFirstUsage(none)).toEqual({ analysis: none, firstDay: null });
  });
});
