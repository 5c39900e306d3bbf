// The charts' legend draws its keys with ColorSwatch, which the console's shared style list leaves out.
import '@mantine/core/styles/ColorSwatch.layer.css';
import '@mantine/charts/styles.layer.css';
import { BarChart, type BarChartProps } from '@mantine/charts';
import { Box, Table, Text } from '@mantine/core';
import { METERING_DIMENSIONS, METERING_DIMENSION_LABELS, type CreditAnalysis, type MonthlyConsumption } from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { costCell } from './cost-format';
import { DimensionCells } from './cost-tables';
import { fromFirstUsage } from './first-usage';
import { dayLabel, monthLabel } from './months';
import { NoUsageBefore } from './no-usage-before';

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

interface ChartFigureProps {
  title: string;
  chart: Omit<BarChartProps, 'valueFormatter' | 'tickLine' | 'yAxisProps' | 'barChartProps'>;
  /** Names the text equivalent. */
  summary: string;
  /** The text equivalent: the same numbers as a table's head and body. */
  children: React.ReactNode;
  /** Said under the title, e.g. that the days start later than the month. */
  note?: React.ReactNode;
}

/** A captioned bar chart of money, with its text equivalent folded away below it until asked for. */
function ChartFigure({ title, chart, summary, children, note }: ChartFigureProps) {
  return (
    <figure style={{ margin: 0 }}>
      <Text component="figcaption" fw={600} mb="xs">
        {title}
      </Text>
      {note}
      {/* The bars repeat the table below for sighted readers; assistive technology reads the table. */}
      <div aria-hidden="true">
        <BarChart
          {...chart}
          valueFormatter={money}
          tickLine="y"
          yAxisProps={{ width: 72 }}
          // The chart is hidden from assistive technology, so it must not take keyboard focus either.
          barChartProps={{ accessibilityLayer: false }}
        />
      </div>
      <Box component="details" mt="xs">
        <Text component="summary" fz="sm" style={{ cursor: 'pointer' }}>
          {summary}
        </Text>
        <Table.ScrollContainer minWidth={480} mt="xs">
          <Table striped fz="sm">
            {children}
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
      chart={{
        h: 280,
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
      chart={{ h: 240, data, dataKey: 'month', series: [{ name: 'cost', label: 'Cost', color: 'blue.6' }] }}
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
