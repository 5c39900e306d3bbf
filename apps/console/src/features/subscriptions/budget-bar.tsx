import { Group, Text } from '@mantine/core';
import type { Budget } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import classes from './budget-bar.module.css';

/** Share of the budget, in percent, rounded down to a whole one (never says 100 % before it is reached). */
export const percentOf = (amount: number, budget: number) => Math.floor((amount * 100) / budget);

/** Room a tick's label needs, in percent of the bar's width, so that labels never overlap on a phone. */
const LABEL_ROOM = 16;

/** The thresholds whose tick gets a label: from the highest down, each with room enough from the one labelled after it. */
function labelled(thresholds: number[], scale: number): number[] {
  const shown: number[] = [];
  for (const threshold of [...thresholds].sort((a, b) => b - a)) {
    const last = shown.at(-1);
    // A label at the bar's end is drawn to the left of its tick: the next one down needs more room.
    const room = last !== undefined && last >= scale ? LABEL_ROOM * 1.5 : LABEL_ROOM;
    if (last === undefined || ((last - threshold) * 100) / scale >= room) shown.push(threshold);
  }
  return shown.reverse();
}

/**
 * The month's spend against the budget, the forecast behind it and the thresholds as ticks. The scale reaches
 * beyond 100 % when a threshold, the spend or the forecast does (up to the highest threshold allowed, 200 %).
 */
export function BudgetBar({ budget, amount }: { budget: Budget; amount: number }) {
  const spent = percentOf(budget.month_to_date, amount);
  const forecast = percentOf(budget.forecast, amount);
  const scale = Math.min(200, Math.max(100, spent, forecast, ...budget.thresholds));
  const at = (percent: number) => `${(Math.min(percent, scale) * 100) / scale}%`;
  return (
    <div>
      <Group justify="space-between" gap="xs" mb={6} wrap="wrap">
        <Text fz="sm">
          <Text span fw={700}>
            {formatUsd(budget.month_to_date)}
          </Text>{' '}
          spent of {formatUsd(amount)} ({spent} %)
        </Text>
        <Text fz="sm" c="dimmed">
          Forecast {formatUsd(budget.forecast)} ({forecast} %)
        </Text>
      </Group>
      <div
        className={classes.track}
        role="meter"
        aria-label="Spend this month against the budget"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={spent}
        aria-valuetext={`${formatUsd(budget.month_to_date)} of ${formatUsd(amount)} (${spent} %), forecast ${formatUsd(budget.forecast)} (${forecast} %)`}
      >
        <div className={classes.forecast} style={{ width: at(forecast) }} data-testid="budget-forecast" />
        <div className={classes.spend} style={{ width: at(spent) }} data-over={spent >= 100 || undefined} data-testid="budget-spend" />
        {budget.thresholds.map((threshold) => (
          <div key={threshold} className={classes.tick} style={{ left: at(threshold) }} />
        ))}
      </div>
      <div className={classes.labels} aria-hidden data-testid="budget-tick-labels">
        {labelled(budget.thresholds, scale).map((threshold) => (
          <span
            key={threshold}
            className={classes.label}
            style={{ left: at(threshold) }}
            data-edge={threshold >= scale ? 'end' : undefined}
          >
            {threshold} %
          </span>
        ))}
      </div>
    </div>
  );
}
