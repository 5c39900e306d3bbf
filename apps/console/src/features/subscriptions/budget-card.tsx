import { useState } from 'react';
import { Button, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Budget, BudgetAlert, Subscription } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatUsd } from '../../lib/format';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { useBudget } from './api/budget';
import stacked from '../../components/stacked-table.module.css';
import { BudgetBar } from './budget-bar';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

// Loaded and rendered when first opened: their forms and checks stay out of the page's first screen.
const BudgetDialog = lazyChunk(() => import('./budget-dialog').then((m) => ({ default: m.BudgetDialog })));
const RemoveBudgetDialog = lazyChunk(() => import('./remove-budget-dialog').then((m) => ({ default: m.RemoveBudgetDialog })));

const ALERT_KIND_LABELS: Record<BudgetAlert['kind'], string> = { ACTUAL: 'Spend', FORECAST: 'Forecast' };

/** The subscription's monthly budget on its Overview: the month's spend against it, or an offer to set one. */
export function BudgetCard({ subscription }: { subscription: Subscription }) {
  const query = useBudget(subscription.subscription_id);
  // A staff member's view shows the budget and changes nothing: the server would refuse it (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const budget = query.data;
  const amount = budget?.monthly_amount ?? null;

  return (
    <Paper withBorder p="md" mt="lg" component="section" aria-labelledby="budget-title">
      <Stack gap="sm">
        <Title order={3} fz="md" id="budget-title">
          Monthly budget{amount !== null && `: ${formatUsd(amount)}`}
        </Title>
        {query.isPending ? (
          <Center py="md">
            <Loader size="sm" aria-label="Loading the budget" />
          </Center>
        ) : query.isError ? (
          <ErrorAlert error={query.error} />
        ) : amount === null ? (
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text fz="sm" c="dimmed" maw={520}>
              No budget is set. With one, the owner and the account admins are alerted as the month&apos;s spend reaches the thresholds
              chosen, and the clusters can be stopped when it is used up.
            </Text>
            {!readOnly && (
              <Button size="xs" onClick={() => setEditing(true)}>
                Set a budget
              </Button>
            )}
          </Group>
        ) : (
          <BudgetDetails budget={query.data} amount={amount} />
        )}
        {budget && amount !== null && !readOnly && (
          <Group gap="xs" justify="flex-end">
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              Edit budget
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(true)}>
              Remove budget
            </Button>
          </Group>
        )}
      </Stack>
      <LoadedWhenOpened opened={editing}>
        <BudgetDialog subscription={subscription} budget={editing ? (budget ?? null) : null} onClose={() => setEditing(false)} />
      </LoadedWhenOpened>
      <LoadedWhenOpened opened={removing}>
        <RemoveBudgetDialog subscription={subscription} opened={removing} onClose={() => setRemoving(false)} />
      </LoadedWhenOpened>
    </Paper>
  );
}

function BudgetDetails({ budget, amount }: { budget: Budget; amount: number }) {
  return (
    <>
      <BudgetBar budget={budget} amount={amount} />
      <Text fz="sm">
        Alerts at {budget.thresholds.join(', ')} % of the budget{budget.alert_on_forecast && ', by the spend and by the forecast'}.{' '}
        {budget.stop_clusters_at_limit
          ? "Hard cap on: the subscription's clusters stop before the month's spend would pass the budget."
          : 'Hard cap off: alerts only, clusters keep running.'}
      </Text>
      <Stack gap={4}>
        <Text fz="sm" fw={600} id="budget-alerts-title">
          Alerts this month
        </Text>
        {budget.alerts.length === 0 ? (
          <Text fz="sm" c="dimmed">
            None yet.
          </Text>
        ) : (
          // On a phone each alert is a card of named values rather than three squeezed columns.
          <Table fz="sm" verticalSpacing={4} aria-labelledby="budget-alerts-title" className={stacked.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Threshold</Table.Th>
                <Table.Th scope="col">Reached by</Table.Th>
                <Table.Th scope="col">Sent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {budget.alerts.map((alert) => (
                <Table.Tr key={`${alert.kind}-${alert.threshold}`}>
                  <Table.Th scope="row" fw={600}>
                    {alert.threshold} %
                  </Table.Th>
                  <Table.Td data-label="Reached by">{ALERT_KIND_LABELS[alert.kind]}</Table.Td>
                  <Table.Td data-label="Sent" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(alert.sent_at)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </>
  );
}
