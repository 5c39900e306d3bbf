import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Card,
  Center,
  EmptyState,
  Group,
  Loader,
  Menu,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import {
  CONSUMPTION_EXPORT_PATHS,
  MESSAGES,
  MINIMUM_BALANCE_CENTS,
  SUBSCRIPTION_STATUS_LABELS,
  SUBSCRIPTION_TYPE_LABELS,
  amountToCents,
  type Subscription,
} from '@kumo/contract';
import { CreditAnalysisPanel } from '../../components/cost/credit-analysis-panel';
import { costCell } from '../../components/cost/cost-format';
import { utcMonthStart } from '../../components/cost/months';
import { IconAlertTriangle, IconDots, IconTrash, IconWallet } from '../../components/icons';
import { formatUsd } from '../../lib/format';
import { StatementsTab } from './statements-tab';
import { formatDateTime } from '../../lib/dates';
import { useReadOnlyView } from '../../lib/read-only-view';
import { subscriptionKeys } from './api/keys';
import { fetchSubscriptionCreditAnalysis, useRefreshSubscriptionList, useSubscriptionDetails } from './api/subscription-details';
import { AutoTopUpCard } from './auto-top-up-card';
import { BalanceOutlookFields, ScheduledRateNotices } from './balance-outlook';
import { BudgetCard } from './budget-card';
import { TransactionHistory } from './transaction-history';
import { DetailField } from '../../components/detail-field';
import { WideTextTooltip } from '../../components/wide-text-tooltip';
import { Amount } from '../../components/amount';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

// Loaded and rendered when first opened: their forms and checks stay out of the page's first screen.
const AddFundsDialog = lazyChunk(() => import('./add-funds-dialog').then((m) => ({ default: m.AddFundsDialog })));
const DeleteSubscriptionDialog = lazyChunk(() =>
  import('./delete-subscription-dialog').then((m) => ({ default: m.DeleteSubscriptionDialog })),
);

export const isBelowMinimumBalance = (subscription: Pick<Subscription, 'total_amount'>) =>
  amountToCents(subscription.total_amount) < MINIMUM_BALANCE_CENTS;

interface SubscriptionDetailsProps {
  subscription: Subscription | undefined;
  loading: boolean;
}

/** The selected subscription: name, remark, status, plan, balance with Add Funds, and its tabs. */
export function SubscriptionDetails({ subscription: listed, loading }: SubscriptionDetailsProps) {
  const refreshList = useRefreshSubscriptionList();
  const detailsQuery = useSubscriptionDetails(listed?.subscription_id);
  const [addingFunds, setAddingFunds] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // A staff member's view offers neither Add Funds nor Delete: the server would refuse them (READ_ONLY_VIEW).
  const readOnly = useReadOnlyView();
  // The details call is the fresher reading; the list catches up when the amount or status moved.
  const subscription = detailsQuery.data ?? listed;
  const fresh = detailsQuery.data;
  useEffect(() => {
    if (fresh && listed && (fresh.total_amount !== listed.total_amount || fresh.status !== listed.status)) {
      refreshList();
    }
  }, [fresh, listed, refreshList]);

  if (!subscription) {
    return (
      <Card>
        {loading ? (
          <Center py={64}>
            <Loader size="sm" aria-label="Loading subscription" />
          </Center>
        ) : (
          <EmptyState variant="light" icon={<IconWallet size={24} />} title={MESSAGES.subscriptionDetailsUnavailable} py={64} />
        )}
      </Card>
    );
  }

  return (
    <Card>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={4} miw={0}>
          <Title order={2} fz="xl" style={{ overflowWrap: 'anywhere' }}>
            {subscription.subscription_name}
          </Title>
          <Text c="dimmed" fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {subscription.remark || 'No remarks'}
          </Text>
        </Stack>
        {!readOnly && (
          <Menu position="bottom-end" shadow="md" width={200}>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`More actions for ${subscription.subscription_name}`}>
                <IconDots size={20} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
                Delete subscription
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>

      {isBelowMinimumBalance(subscription) && (
        <Alert mt="md" color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {MESSAGES.minimumBalance}
        </Alert>
      )}
      <ScheduledRateNotices subscriptionId={subscription.subscription_id} />

      <SimpleGrid cols={{ base: 1, sm: 3 }} mt="lg" spacing="md">
        <DetailField label="Status">
          <Badge variant="light" color={subscription.status === 'ACTIVE' ? 'teal' : 'gray'} w="fit-content">
            {SUBSCRIPTION_STATUS_LABELS[subscription.status]}
          </Badge>
        </DetailField>
        <DetailField label="Subscription Plan">
          <Text fw={500}>{SUBSCRIPTION_TYPE_LABELS[subscription.subscription_type]}</Text>
        </DetailField>
        <DetailField label="Your Balance">
          <Group gap="sm" align="baseline">
            <Amount value={subscription.total_amount} fz="lg" fw={700} />
            {!readOnly && (
              <Anchor component="button" type="button" fz="sm" fw={600} onClick={() => setAddingFunds(true)}>
                Add Funds
              </Anchor>
            )}
          </Group>
        </DetailField>
      </SimpleGrid>
      <BalanceOutlookFields subscriptionId={subscription.subscription_id} />

      <Tabs defaultValue="overview" mt="xl" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="cost-analysis">Cost Analysis</Tabs.Tab>
          <Tabs.Tab value="transactions">Transaction History</Tabs.Tab>
          <Tabs.Tab value="statements">Statements</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="statements" pt="md">
          <StatementsTab subscription={subscription} />
        </Tabs.Panel>
        <Tabs.Panel value="overview" pt="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            <DetailField label="Subscription ID">
              <Text fz="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {subscription.subscription_id}
              </Text>
            </DetailField>
            <DetailField label="Subscribed on">
              <Text fz="sm">{formatDateTime(subscription.created_at)}</Text>
            </DetailField>
            <DetailField label="Subscribed by">
              <Text fz="sm">{subscription.created_by}</Text>
              <WideTextTooltip text={subscription.subscribed_by_email_id} fz="xs" c="dimmed" />
            </DetailField>
            <DetailField label="Active clusters">
              <Text fz="sm">{subscription.active_cluster_count}</Text>
            </DetailField>
            <DetailField label="Used this month">
              <Text fz="sm">{formatUsd(subscription.consumed_amount)}</Text>
            </DetailField>
          </SimpleGrid>
          <BudgetCard subscription={subscription} />
          <AutoTopUpCard subscription={subscription} onTopUpNow={() => setAddingFunds(true)} />
        </Tabs.Panel>
        <Tabs.Panel value="cost-analysis" pt="md">
          <CostAnalysis subscription={subscription} />
        </Tabs.Panel>
        <Tabs.Panel value="transactions" pt="md">
          <TransactionHistory subscriptionId={subscription.subscription_id} />
        </Tabs.Panel>
      </Tabs>

      <LoadedWhenOpened opened={addingFunds}>
        <AddFundsDialog subscription={addingFunds ? subscription : null} onClose={() => setAddingFunds(false)} />
      </LoadedWhenOpened>
      <LoadedWhenOpened opened={deleting}>
        <DeleteSubscriptionDialog subscription={deleting ? subscription : null} onClose={() => setDeleting(false)} />
      </LoadedWhenOpened>
    </Card>
  );
}

/** The month's actual cost and forecast over the cost and consumption tables (spec section 2). */
function CostAnalysis({ subscription }: { subscription: Subscription }) {
  return (
    <CreditAnalysisPanel
      queryKey={subscriptionKeys.creditAnalysis(subscription.subscription_id)}
      fetchAnalysis={(startDate, signal) => fetchSubscriptionCreditAnalysis(subscription.subscription_id, startDate, signal)}
      exportPath={CONSUMPTION_EXPORT_PATHS.subscription(subscription.subscription_id)}
      subject={subscription.subscription_name}
      summary={(startDate) =>
        // The subscription carries this month's figures; earlier months show their tables alone.
        startDate === utcMonthStart() ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <DetailField label="Actual cost this month">
              <Text fz="lg" fw={600}>
                {costCell(subscription.consumed_amount)}
              </Text>
            </DetailField>
            <DetailField label="Forecast for the month">
              <Text fz="lg" fw={600}>
                {costCell(subscription.forecasted_amount)}
              </Text>
            </DetailField>
          </SimpleGrid>
        ) : null
      }
    />
  );
}
