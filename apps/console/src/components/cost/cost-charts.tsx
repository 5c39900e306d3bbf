import { Suspense } from 'react';
import type { BarChartProps } from '@mantine/charts';
import { Box, Table, Text } from '@mantine/core';
import { METERING_DIMENSIONS, METERING_DIMENSION_LABELS, type CreditAnalysis, type MonthlyConsumption } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { costCell } from './cost-format';
import { DimensionCells } from './cost-tables';
import { fromFirstUsage } from './first-usage';
import { dayLabel, monthLabel } from './months';
import { NoUsageBefore } from './no-usage-before';
import { useNearView } from '../when-near-view';
import { lazyChunk } from '../../lib/load-chunk';
import classes from './cost-charts.module.css';

/** One colour per service, from the theme's palette, distinct in light and dark schemes. */
const SERVICE_COLORS: Record<(typeof METERING_DIMENSIONS)[number], string> = {
  BI_SERVER: 'blue.6',
  QUERY_ENGINES: 'teal.6',
  DATA_PROCESS: 'violet.6',
  PERIPHERAL_SERVICES: 'orange.6',
  LOCAL_STORAGE: 'cyan.6',
  PERSISTENT_STORAGE: 'grape.6',
  PERSISTENT_STORAGE_REQUESTS: 'indigo.6',
  BACKUP_STORAGE: 'yellow.6',
  BACKUP_DATA_TRANSFER: 'pink.6',
};

const money = (value: number) => formatUsd(value);

const BarChart = lazyChunk(() => import('./bar-chart'));

interface ChartFigureProps {
  title: string;
  /** The chart's height in pixels, kept by its box before it is drawn. */
  height: number;
  chart: Omit<BarChartProps, 'h' | 'valueFormatter' | 'tickLine' | 'yAxisProps' | 'barChartProps'>;
  /** Names the text equivalent. */
  summary: string;
  /** The text equivalent: the same numbers as a table's head and body. */
  children: React.ReactNode;
  /** Said under the title, e.g. that the days start later than the month. */
  note?: React.ReactNode;
  className?: string;
}

/**
 * A captioned bar chart of money, with its text equivalent folded away below it until asked for. The bars and the
 * table's rows are drawn once the figure comes near the screen (useNearView): until then the chart's box keeps its
 * height, so nothing moves when they arrive.
 */
function ChartFigure({ title, height, chart, summary, children, note, className }: ChartFigureProps) {
  const { ref, near } = useNearView();
  return (
    <figure ref={ref} style={{ margin: 0 }} className={className}>
      <Text component="figcaption" fw={600} mb="xs">
        {title}
      </Text>
      {note}
      {/* The bars repeat the table below for sighted readers; assistive technology reads the table. */}
      <div aria-hidden="true">
        {near ? (
          <Suspense fallback={<div style={{ height }} />}>
            <BarChart
              {...chart}
              h={height}
              valueFormatter={money}
              tickLine="y"
              yAxisProps={{ width: 72 }}
              // The chart is hidden from assistive technology, so it must not take keyboard focus either.
              barChartProps={{ accessibilityLayer: false }}
            />
          </Suspense>
        ) : (
          <div style={{ height }} />
        )}
      </div>
      <Box component="details" mt="xs">
        <Text component="summary" fz="sm" style={{ cursor: 'pointer' }}>
          {summary}
        </Text>
        <Table.ScrollContainer minWidth={480} mt="xs">
          <Table striped fz="sm">
            {near && children}
          </Table>
        </Table.ScrollContainer>
      </Box>
    </figure>
  );
}

/** The month's daily cost stacked by service; only services that cost something get a bar colour and a column. */
export function DailyServiceChart({ analysis: month, title }: { analysis: CreditAnalysis; title: string }) {
  // From the first day with usage: the days before it are no rows of '--'.
  const { analysis, firstDay } = fromFirstUsage(month);
  const used = METERING_DIMENSIONS.filter((dimension) => (analysis.total_service_consumption[dimension] ?? 0) > 0);
  const data = analysis.daily.map((day) => ({
    day: dayLabel(day.date),
    ...Object.fromEntries(used.map((dimension) => [dimension, day.service_consumption[dimension] ?? 0])),
  }));
  return (
    <ChartFigure
      title={title}
      height={280}
      chart={{
        data,
        dataKey: 'day',
        type: 'stacked',
        series: used.map((dimension) => ({
          name: dimension,
          label: METERING_DIMENSION_LABELS[dimension],
          color: SERVICE_COLORS[dimension],
        })),
        withLegend: true,
        legendProps: { verticalAlign: 'bottom' },
      }}
      summary="Daily cost by service as a table"
      note={<NoUsageBefore day={firstDay} />}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Date</Table.Th>
          {used.map((dimension) => (
            <Table.Th key={dimension} scope="col" ta="right">
              {METERING_DIMENSION_LABELS[dimension]}
            </Table.Th>
          ))}
          <Table.Th scope="col" ta="right">
            Total
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {analysis.daily.map((day) => (
          <Table.Tr key={day.date}>
            <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
              {dayLabel(day.date)}
            </Table.Th>
            <DimensionCells dimensions={used} value={(dimension) => costCell(day.service_consumption[dimension] ?? 0)} />
            <Table.Td ta="right">{costCell(day.daily_total)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ChartFigure>
  );
}

/** The cost of each of the last 12 months, oldest first. */
export function MonthlyChart({ months, title }: { months: MonthlyConsumption[]; title: string }) {
  const data = months.map((month) => ({ month: monthLabel(month.date), cost: month.monthly_consumed_amount }));
  return (
    <ChartFigure
      title={title}
      height={240}
      chart={{ data, dataKey: 'month', series: [{ name: 'cost', label: 'Cost', color: 'blue.6' }] }}
      summary="Monthly cost as a table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Month</Table.Th>
          <Table.Th scope="col" ta="right">
            Cost
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {months.map((month) => (
          <Table.Tr key={month.date}>
            <Table.Th scope="row" fw={400}>
              {monthLabel(month.date)}
            </Table.Th>
            <Table.Td ta="right">{costCell(month.monthly_consumed_amount)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ChartFigure>
  );
}

/** The month's cost so far at the end of each day, to the cent. */
export function runningTotals(analysis: CreditAnalysis): { date: string; total: number }[] {
  let cents = 0;
  return analysis.daily.map((day) => {
    cents += Math.round(day.daily_total * 100);
    return { date: day.date, total: cents / 100 };
  });
}

/**
 * The month's cost so far, day by day, with the subscription's monthly budget (when it has one) as a labelled
 * horizontal line; the text equivalent names the budget and each day's share of it.
 */
export function CumulativeMonthChart({
  analysis: month,
  title,
  budget,
}: {
  analysis: CreditAnalysis;
  title: string;
  budget: number | null;
}) {
  const { analysis } = fromFirstUsage(month);
  const days = runningTotals(analysis);
  const share = (total: number) => `${Math.floor((total * 100) / budget!)} %`;
  return (
    <ChartFigure
      title={title}
      className={budget === null ? undefined : classes.withBudget}
      height={240}
      chart={{
        data: days.map((day) => ({ day: dayLabel(day.date), total: day.total })),
        dataKey: 'day',
        series: [{ name: 'total', label: 'Cost so far', color: 'blue.6' }],
        referenceLines:
          budget === null
            ? []
            : [
                {
                  y: budget,
                  label: `Budget ${formatUsd(budget)}`,
                  color: 'var(--budget-line-color)',
                  labelPosition: 'insideTopLeft',
                  strokeDasharray: '6 4',
                  strokeWidth: 2,
                  // The axis reaches up to the budget even while the spend is far below it.
                  ifOverflow: 'extendDomain',
                },
              ],
      }}
      summary="Cost so far as a table"
      note={
        budget !== null && (
          <Text fz="sm" c="dimmed" mb="xs">
            The dashed line is the monthly budget, {formatUsd(budget)}.
          </Text>
        )
      }
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Date</Table.Th>
          <Table.Th scope="col" ta="right">
            Cost so far
          </Table.Th>
          {budget !== null && (
            <Table.Th scope="col" ta="right">
              Of the budget
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {days.map((day) => (
          <Table.Tr key={day.date}>
            <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
              {dayLabel(day.date)}
            </Table.Th>
            <Table.Td ta="right">{costCell(day.total)}</Table.Td>
            {budget !== null && <Table.Td ta="right">{share(day.total)}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ChartFigure>
  );
}
