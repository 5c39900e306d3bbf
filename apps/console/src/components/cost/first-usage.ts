import type { CreditAnalysis } from '@kumo/contract';

/** Whether anything was charged or used on the day (a day of free units used costs nothing but is usage). */
function dayHasUsage(analysis: CreditAnalysis, date: string): boolean {
  const cost = analysis.daily.find((day) => day.date === date);
  const usage = analysis.consumption.find((day) => day.date === date);
  return (
    (cost !== undefined && (cost.daily_total !== 0 || cost.compute_total !== 0 || cost.storage_total !== 0)) ||
    (usage !== undefined && Object.values(usage.usage).some((quantity) => quantity !== 0))
  );
}

/**
 * The month's days from the first with usage on: the days before it (before the cluster or subscription had
 * anything running) are left out of the daily tables rather than listed as rows of '--'. `firstDay` is the day
 * the tables now start at when earlier days were left out, else null. A month without any usage is kept whole
 * (the panels show their empty state for it).
 */
export function fromFirstUsage(analysis: CreditAnalysis): { analysis: CreditAnalysis; firstDay: string | null } {
  const dates = [...new Set([...analysis.daily, ...analysis.consumption].map((day) => day.date))].sort();
  const first = dates.find((date) => dayHasUsage(analysis, date));
  if (first === undefined || first === dates[0]) return { analysis, firstDay: null };
  return {
    analysis: {
      ...analysis,
      daily: analysis.daily.filter((day) => day.date >= first),
      consumption: analysis.consumption.filter((day) => day.date >= first),
    },
    firstDay: first,
  };
}
