import { useState } from 'react';
import { Box, Card, Center, EmptyState, Group, Loader, NativeSelect, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { MESSAGES, METERING_MESSAGES, type SubscriptionConsumptionOverview } from '@kumo/contract';
import { isAllZero } from '../../components/cost/credit-analysis-panel';
import { CumulativeMonthChart, DailyServiceChart, MonthlyChart } from '../../components/cost/cost-charts';
import { costCell } from '../../components/cost/cost-format';
import { CostLoadError } from '../../components/cost/cost-load-error';
import { MonthSelect } from '../../components/cost/month-select';
import { costMonthOptions, monthLabel } from '../../components/cost/months';
import { IconChart } from '../../components/icons';
import { CostAnalysisHeader } from '../../components/page-headers';
import { formatUsd } from '../../lib/format';
import stacked from '../../components/stacked-table.module.css';
import { consumptionOverviewQuery, useConsumptionOverview, useSubscriptionAnalysis, useSubscriptionBudget } from './api/cost';
import type { FirstRead } from '../../lib/api/first-reads';
import { Amount } from '../../components/amount';

/** The page looks back a year, as far as its 12-month chart reaches. */
const MONTHS_ON_PAGE = 12;

/** What the page is first shown with (app/routes.tsx): this month's overview, the month it opens on. */
export const costAnalysisFirstReads = (): FirstRead[] => [consumptionOverviewQuery(costMonthOptions(undefined, MONTHS_ON_PAGE)[0]!.value)];

export function CostAnalysisPage({ now }: { now?: Date }) {
  const [options] = useState(() => costMonthOptions(now, MONTHS_ON_PAGE));
  const [startDate, setStartDate] = useState(options[0]!.value);
  const overview = useConsumptionOverview(startDate);
  const rows = overview.data ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const subscriptionId = rows.find((row) => row.subscription_id === chosen)?.subscription_id ?? rows[0]?.subscription_id;

  return (
    <>
      <CostAnalysisHeader />
      <Stack gap="lg">
        <Card>
          <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
            <Text fw={600} component="h2" fz="lg" m={0}>
              Cost overview
            </Text>
            <MonthSelect options={options} value={startDate} onChange={setStartDate} />
          </Group>
          {overview.isError && !overview.data ? (
            <CostLoadError error={overview.error} />
          ) : overview.isPending ? (
            <Center py={48}>
              <Loader size="sm" aria-label="Loading cost overview" />
            </Center>
          ) : rows.length === 0 ? (
            <EmptyState variant="light" icon={<IconChart size={24} />} title={MESSAGES.noUsageCost} py={48} />
          ) : (
            <OverviewTable rows={rows} month={monthLabel(startDate)} />
          )}
        </Card>

        {rows.length > 0 && subscriptionId && (
          <SubscriptionCharts subscriptions={rows} subscriptionId={subscriptionId} onChoose={setChosen} startDate={startDate} />
        )}
      </Stack>
    </>
  );
}

/**
 * Each subscription's actual cost, forecast and balance. On a phone every row is a card of named values, so the
 * actual cost and the forecast stay on screen rather than past a sideways scroll.
 */
function OverviewTable({ rows, month }: { rows: SubscriptionConsumptionOverview[]; month: string }) {
  const sum = (pick: (row: SubscriptionConsumptionOverview) => number) =>
    // Cents keep the sum exact; amounts carry at most two decimals.
    rows.reduce((total, row) => total + Math.round(pick(row) * 100), 0) / 100;
  return (
    <Box style={{ overflowX: 'auto' }}>
      <Table striped highlightOnHover miw={520} className={stacked.table}>
        <Table.Caption>Cost of each subscription, {month}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Subscription name</Table.Th>
            <Table.Th scope="col" ta="right">
              Actual cost
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Forecast
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Balance
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.subscription_id}>
              <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {row.subscription_name}
              </Table.Th>
              <Table.Td data-label="Actual cost" ta="right">
                {costCell(row.consumed_amount)}
              </Table.Td>
              <Table.Td data-label="Forecast" ta="right">
                {costCell(row.forecasted_amount)}
              </Table.Td>
              <Table.Td data-label="Balance" ta="right">
                <Amount value={row.balance} span inherit />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        {rows.length > 1 && (
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">Total</Table.Th>
              <Table.Td data-label="Actual cost" ta="right" fw={700}>
                {formatUsd(sum((row) => row.consumed_amount))}
              </Table.Td>
              <Table.Td data-label="Forecast" ta="right" fw={700}>
                {formatUsd(sum((row) => row.forecasted_amount))}
              </Table.Td>
              <Table.Td data-label="Balance" ta="right" fw={700}>
                {formatUsd(sum((row) => row.balance))}
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
    </Box>
  );
}

interface SubscriptionChartsProps {
  subscriptions: SubscriptionConsumptionOverview[];
  subscriptionId: string;
  onChoose: (subscriptionId: string) => void;
  startDate: string;
}

/** The chosen subscription's month by day and service, its running total against its budget, and its last 12 months. */
function SubscriptionCharts({ subscriptions, subscriptionId, onChoose, startDate }: SubscriptionChartsProps) {
  const analysis = useSubscriptionAnalysis(subscriptionId, startDate);
  // A budget that did not load leaves the running total without its line; the numbers are still right.
  const budget = useSubscriptionBudget(subscriptionId).data?.monthly_amount ?? null;
  const name = subscriptions.find((row) => row.subscription_id === subscriptionId)?.subscription_name ?? '';
  const month = monthLabel(startDate);
  const data = analysis.data;
  return (
    <Card>
      <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
        <Text fw={600} component="h2" fz="lg" m={0}>
          Cost by service
        </Text>
        {subscriptions.length > 1 && (
          // The browser's own select, as the month picker above (components/cost/month-select.tsx).
          <NativeSelect
            label="Subscription"
            data={subscriptions.map((row) => ({ value: row.subscription_id, label: row.subscription_name }))}
            value={subscriptionId}
            onChange={(event) => onChoose(event.currentTarget.value)}
            w={240}
            size="sm"
          />
        )}
      </Group>
      {analysis.isError && !data ? (
        <CostLoadError error={analysis.error} />
      ) : !data ? (
        <Center py={48}>
          <Loader size="sm" aria-label="Loading cost by service" />
        </Center>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          {isAllZero(data) ? (
            <EmptyState variant="light" icon={<IconChart size={24} />} title={METERING_MESSAGES.costUnavailable} py={48} />
          ) : (
            <>
              <DailyServiceChart analysis={data} title={`Daily cost of ${name} by service, ${month}`} />
              <CumulativeMonthChart analysis={data} budget={budget} title={`Cost of ${name} so far, ${month}`} />
            </>
          )}
          <MonthlyChart months={data.last_12_months} title={`Cost of ${name}, last 12 months`} />
        </SimpleGrid>
      )}
    </Card>
  );
}
