import { useState } from 'react';
import { ActionIcon, Avatar, Button, Card, Center, EmptyState, Group, Loader, Menu, Stack, Tabs, Text, Title } from '@mantine/core';
import { ADMIN_MESSAGES, type CustomerDetail } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { IconBuilding, IconDots } from '../../components/icons';
import { formatUsd, initials } from '../../lib/format';
import { formatDateTime } from '../../lib/dates';
import { useCustomerDetail } from './api/customer-detail';
import { KmAccessDialog } from './km-access-dialog';
import { OverdueLimitDialog } from './overdue-limit-dialog';
import { Permission, usePermission } from './permission';
import { AddedUsersTab } from './tabs/added-users-tab';
import { ClustersTab } from './tabs/clusters-tab';
import { CostTab } from './tabs/cost-tab';
import { OverviewTab } from './tabs/overview-tab';
import { RatesTab } from './tabs/rates-tab';
import { SubscriptionsTab } from './tabs/subscriptions-tab';
import { TransactionsTab } from './tabs/transactions-tab';
import { ViewAsCustomerButton } from './view-as-customer-button';
import { ErrorAlert } from '../../components/error-alert';

function Unavailable() {
  return (
    <Card>
      <EmptyState variant="light" icon={<IconBuilding size={24} />} title={ADMIN_MESSAGES.customerDetailsUnavailable} py={64} />
    </Card>
  );
}

/** /admin/customers/{userId}: the customer's header and the tabs the staff member's role may see. */
export function CustomerDetails({ userId }: { userId: string | undefined }) {
  const query = useCustomerDetail(userId);
  if (!userId) return <Unavailable />;
  if (query.isPending) {
    return (
      <Card>
        <Center py={64}>
          <Loader size="sm" aria-label="Loading customer details" />
        </Center>
      </Card>
    );
  }
  if (query.isError) {
    return query.error instanceof Error && 'status' in query.error && query.error.status === 404 ? (
      <Unavailable />
    ) : (
      <Card>
        <ErrorAlert error={query.error} />
      </Card>
    );
  }
  return (
    <Stack gap="md">
      <CustomerHeader customer={query.data} />
      <CustomerTabs customer={query.data} />
    </Stack>
  );
}

function CustomerHeader({ customer }: { customer: CustomerDetail }) {
  const [changingLimit, setChangingLimit] = useState(false);
  const [managingKm, setManagingKm] = useState(false);
  const manageKm = usePermission('customer_manage_km_access');
  return (
    <Card>
      {/* On a narrow screen the buttons go below the name and e-mail rather than over them. */}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Group gap="md" wrap="nowrap" miw={0} style={{ flex: '1 1 240px' }}>
          <Avatar color="indigo" radius="xl" size={56}>
            {initials(customer.user_name)}
          </Avatar>
          <Stack gap={2} miw={0}>
            <Title order={2} fz="xl">
              {customer.user_name}
            </Title>
            <Text c="dimmed" truncate="end">
              {customer.email_id}
            </Text>
          </Stack>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Permission name="customer_switch_user">
            {({ disabled }) => <ViewAsCustomerButton userId={customer.user_id} disabled={disabled} />}
          </Permission>
          {manageKm.visible && (
            <Menu position="bottom-end">
              <Menu.Target>
                <ActionIcon variant="subtle" size="lg" aria-label="More information">
                  <IconDots size={20} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item disabled={manageKm.disabled} onClick={() => setManagingKm(true)}>
                  Manage KM Access Rights
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <Group gap="xl" mt="md" wrap="wrap">
        <DetailField label="Registered on">
          <Text fz="sm">{formatDateTime(customer.created_at)}</Text>
        </DetailField>
        <Permission name="customer_subscription_balance">
          <DetailField label="Total subscriptions balance">
            <Text fz="sm" fw={600}>
              {formatUsd(customer.total_subscription_balance)}
            </Text>
          </DetailField>
        </Permission>
        <Permission name="customer_overdue_limit">
          <DetailField label="Overdue limit">
            <Group gap="xs">
              <Text fz="sm" fw={600}>
                {formatUsd(customer.outstanding_limit)}
              </Text>
              <Permission name="customer_change_overdue">
                {({ disabled }) => (
                  <Button size="compact-xs" variant="light" disabled={disabled} onClick={() => setChangingLimit(true)}>
                    Change Limit
                  </Button>
                )}
              </Permission>
            </Group>
          </DetailField>
        </Permission>
      </Group>
      <OverdueLimitDialog
        userId={customer.user_id}
        opened={changingLimit}
        current={customer.outstanding_limit}
        onClose={() => setChangingLimit(false)}
      />
      <KmAccessDialog userId={customer.user_id} opened={managingKm} onClose={() => setManagingKm(false)} />
    </Card>
  );
}

const TABS = [
  { value: 'overview', label: 'Overview', key: 'customer_overview' },
  { value: 'rates', label: 'Service Rates', key: 'customer_rates' },
  { value: 'cost', label: 'Cost Analysis', key: 'customer_cost_analysis' },
  { value: 'transactions', label: 'Transaction History', key: 'customer_transaction_history' },
  { value: 'subscriptions', label: 'Subscriptions', key: 'customer_subscription' },
  { value: 'clusters', label: 'Clusters', key: 'customer_cluster' },
  { value: 'users', label: 'Added Users', key: 'customer_added_users' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

function CustomerTabs({ customer }: { customer: CustomerDetail }) {
  const access = {
    overview: usePermission('customer_overview'),
    rates: usePermission('customer_rates'),
    cost: usePermission('customer_cost_analysis'),
    transactions: usePermission('customer_transaction_history'),
    subscriptions: usePermission('customer_subscription'),
    clusters: usePermission('customer_cluster'),
    users: usePermission('customer_added_users'),
  } satisfies Record<TabValue, unknown>;
  // A tab is shown only when its key is not hidden, and can be opened only when enabled (spec section 6).
  const shown = TABS.filter((tab) => access[tab.value].visible);
  const firstOpen = shown.find((tab) => !access[tab.value].disabled)?.value ?? null;
  const [tab, setTab] = useState<TabValue | null>(firstOpen);
  const [transactionsOf, setTransactionsOf] = useState<string | null>(null);
  if (shown.length === 0) return null;
  const active = tab && !access[tab].disabled && access[tab].visible ? tab : firstOpen;
  const id = customer.user_id;

  return (
    <Card>
      <Tabs value={active} onChange={(value) => setTab(value as TabValue)} keepMounted={false}>
        <Tabs.List mb="md">
          {shown.map((t) => (
            <Tabs.Tab key={t.value} value={t.value} disabled={access[t.value].disabled}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview">
          <OverviewTab customer={customer} />
        </Tabs.Panel>
        <Tabs.Panel value="rates">
          <RatesTab userId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="cost">
          <CostTab userId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="transactions">
          <TransactionsTab userId={id} subscriptionId={transactionsOf} onSubscriptionChange={setTransactionsOf} />
        </Tabs.Panel>
        <Tabs.Panel value="subscriptions">
          <SubscriptionsTab
            userId={id}
            onViewTransactions={(subscriptionId) => {
              setTransactionsOf(subscriptionId);
              if (access.transactions.visible && !access.transactions.disabled) setTab('transactions');
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="clusters">
          <ClustersTab userId={id} />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <AddedUsersTab userId={id} />
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}
