import { useState } from 'react';
import { ActionIcon, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  ADMIN_MESSAGES,
  TRANSACTION_CATEGORY_LABELS,
  UNPAID_CHECKOUT_LABELS,
  isAdminFundCategory,
  type Transaction,
  type TransactionStatus,
} from '@kumo/contract';
import { IconDownload } from '../../../components/icons';
import { api } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { formatDateTime } from '../../../lib/dates';
import { useAdminPages } from '../api/customer-detail';
import { downloadAdminReceipt } from '../api/downloads';
import { customerKeys } from '../api/keys';
import { Permission, usePermission } from '../permission';
import { PagedTable } from './paged-table';
import { notifyError, notifyWarning } from '../../../components/notify';

/** The transactions of one of the customer's subscriptions, chosen from a list (Transaction History tab). */
export function TransactionsTab({ userId, subscriptionId, onSubscriptionChange }: TransactionsTabProps) {
  const table = usePermission('customer_transaction_table');
  const subscriptions = useAdminPages(customerKeys.tab(userId, 'subscriptions'), (page, size, signal) =>
    api.get(`/api/admin/view-subscriptions/${userId}`, { query: { page, size }, signal }),
  );
  const [picked, setPicked] = useState<string | null>(null);
  const selected = subscriptionId ?? picked ?? subscriptions.items[0]?.subscription_id ?? null;
  const choose = (id: string | null) => (onSubscriptionChange ? onSubscriptionChange(id) : setPicked(id));

  if (!table.visible) return null;
  if (!subscriptions.query.isPending && subscriptions.items.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        {ADMIN_MESSAGES.noTransactions}
      </Text>
    );
  }
  return (
    <Permission name="customer_transaction_table">
      <Stack gap="sm">
        <Select
          label="Subscription"
          w="100%"
          maw={320}
          allowDeselect={false}
          data={subscriptions.items.map((s) => ({ value: s.subscription_id, label: s.subscription_name }))}
          value={selected}
          onChange={choose}
        />
        {selected && <TransactionTable key={selected} userId={userId} subscriptionId={selected} />}
      </Stack>
    </Permission>
  );
}

interface TransactionsTabProps {
  userId: string;
  /** Set when another tab's View Details chose the subscription. */
  subscriptionId?: string | null;
  onSubscriptionChange?: (subscriptionId: string | null) => void;
}

function TransactionTable({ userId, subscriptionId }: { userId: string; subscriptionId: string }) {
  const pages = useAdminPages(customerKeys.tab(userId, 'transactions', subscriptionId), (page, size, signal) =>
    api.get(`/api/admin/view/credit-transactions/${subscriptionId}`, { query: { userId, page, size }, signal }),
  );
  const unpaid = pages.query.data?.pages[0]?.unpaid_checkouts ?? [];
  return (
    <Stack gap="md">
      {unpaid.length > 0 && <UnpaidCheckouts checkouts={unpaid} />}
      <PagedTable
        pages={pages}
        label="Transaction history"
        empty={ADMIN_MESSAGES.noTransactions}
        head={
          <Table.Tr>
            {['ID', 'Receipt ID', 'Date', 'Category', 'Description and remarks', 'Amount', 'Balance', 'Receipt'].map((c) => (
              <Table.Th key={c}>{c}</Table.Th>
            ))}
          </Table.Tr>
        }
        row={(t) => <TransactionRow key={t.transaction_id} userId={userId} transaction={t} />}
      />
    </Stack>
  );
}

/** The customer's checkouts that moved no money, apart from the entries (as the customer sees them). */
function UnpaidCheckouts({ checkouts }: { checkouts: Transaction[] }) {
  return (
    <Table aria-label="Checkouts not paid" verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          {['Checkout not paid', 'Opened', 'Amount', 'State'].map((c) => (
            <Table.Th key={c}>{c}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {checkouts.map((c) => (
          <Table.Tr key={c.transaction_id}>
            <Table.Td>
              <Text fz="xs" ff="monospace">
                {c.transaction_id.slice(0, 8)}
              </Text>
            </Table.Td>
            <Table.Td>{formatDateTime(c.transaction_date)}</Table.Td>
            <Table.Td>{formatUsd(c.amount)}</Table.Td>
            <Table.Td>{UNPAID_CHECKOUT_LABELS[c.transaction_status as Exclude<TransactionStatus, 'SUCCESSFUL'>]}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function TransactionRow({ userId, transaction: t }: { userId: string; transaction: Transaction }) {
  const download = () => {
    // Staff-added funds have no payment behind them, so no receipt (spec section 8).
    if (isAdminFundCategory(t.category) || !t.receipt_id) {
      notifyWarning(ADMIN_MESSAGES.adminReceiptWarning);
      return;
    }
    downloadAdminReceipt(userId, t.transaction_id).catch((error: unknown) => notifyError(error));
  };
  return (
    <Table.Tr>
      <Table.Td>
        <Text fz="xs" ff="monospace">
          {t.transaction_id.slice(0, 8)}
        </Text>
      </Table.Td>
      <Table.Td>{t.receipt_id ?? '--'}</Table.Td>
      <Table.Td>{formatDateTime(t.transaction_date)}</Table.Td>
      <Table.Td>{TRANSACTION_CATEGORY_LABELS[t.category]}</Table.Td>
      <Table.Td>
        <Text fz="sm">{t.description}</Text>
        {t.remark && (
          <Text fz="xs" c="dimmed">
            {t.remark}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{formatUsd(t.amount)}</Table.Td>
      <Table.Td>{t.balance_after === null ? '--' : formatUsd(t.balance_after)}</Table.Td>
      <Table.Td>
        <Permission name="customer_transactions_receipts">
          {({ disabled }) => (
            <Tooltip label="Download receipt">
              <ActionIcon variant="subtle" aria-label={`Download receipt of ${t.transaction_id}`} disabled={disabled} onClick={download}>
                <IconDownload size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Permission>
      </Table.Td>
    </Table.Tr>
  );
}
