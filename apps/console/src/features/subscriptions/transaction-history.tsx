import { ActionIcon, Badge, Box, Center, EmptyState, Loader, Menu, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  MESSAGES,
  TRANSACTION_CATEGORY_LABELS,
  TRANSACTION_STATUS_LABELS,
  receiptAction,
  type Transaction,
  type TransactionStatus,
} from '@kumo/contract';
import { IconDots, IconDownload, IconReceipt, IconX } from '../../components/icons';
import { formatDateTime } from '../../lib/dates';
import { useCancelPendingCheckout } from './api/cancel-pending-checkout';
import { useCreditTransactions } from './api/credit-transactions';
import { useDownloadReceipt } from './api/download-receipt';
import { useLoadMoreOnScroll } from '../../lib/scroll';
import classes from '../../components/stacked-table.module.css';
import { notifyError, notifySuccess, notifyWarning } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';
import { Amount } from '../../components/amount';

const COLUMNS = ['ID', 'Receipt ID', 'Date', 'Category', 'Description and remarks', 'Amount', 'Status'];

export const STATUS_COLORS: Record<TransactionStatus, string> = {
  SUCCESSFUL: 'teal',
  FAILED: 'red',
  PAYMENT_INTENT_CREATED: 'gray',
  PROCESSING: 'blue',
  CANCELLED: 'gray',
};

/** The subscription's transactions, 20 at a time, the next page loading when the table is scrolled to its end. */
export function TransactionHistory({ subscriptionId }: { subscriptionId: string }) {
  const query = useCreditTransactions(subscriptionId);
  const onScroll = useLoadMoreOnScroll(query);
  const rows = query.data?.pages.flatMap((page) => page.content) ?? [];

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" aria-label="Loading transactions" />
      </Center>
    );
  }
  if (query.isError) {
    return <ErrorAlert error={query.error} />;
  }
  if (rows.length === 0) {
    return <EmptyState variant="light" icon={<IconReceipt size={24} />} title={MESSAGES.noTransactions} py="xl" />;
  }

  return (
    <Box
      data-testid="transaction-scroll"
      onScroll={onScroll}
      style={{
        // Most of the window (not a three-row slot): the next page still loads when this box is scrolled to its end.
        maxHeight: 'max(360px, 70dvh)',
        overflowY: 'auto',
        border: '1px solid var(--kumo-color-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <Table
        stickyHeader
        verticalSpacing="sm"
        // 8 px beside each cell: at 1366 px the whole table, receipt menu included, fits its card.
        horizontalSpacing={8}
        highlightOnHover
        aria-label="Transaction history"
        miw={700}
        className={classes.table}
      >
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase" style={column === 'Amount' ? { textAlign: 'right' } : undefined}>
                {column}
              </Table.Th>
            ))}
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((transaction) => (
            <TransactionRow key={transaction.transaction_id} transaction={transaction} />
          ))}
        </Table.Tbody>
      </Table>
      {query.isFetchingNextPage && (
        <Center py="sm">
          <Loader size="xs" aria-label="Loading more transactions" />
        </Center>
      )}
    </Box>
  );
}

function TransactionRow({ transaction }: { transaction: Transaction }) {
  const action = receiptAction(transaction);
  return (
    <Table.Tr>
      <Table.Td data-label="ID">
        <Tooltip label={transaction.transaction_id}>
          <Text fz="xs" ff="monospace" c="dimmed" aria-label={`Transaction ${transaction.transaction_id}`}>
            {transaction.transaction_id.slice(0, 8)}
          </Text>
        </Tooltip>
      </Table.Td>
      <Table.Td data-label="Receipt ID">
        <Text fz="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {transaction.receipt_id ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td data-label="Date">
        <DateTime value={transaction.transaction_date} />
      </Table.Td>
      <Table.Td data-label="Category">
        <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
          {TRANSACTION_CATEGORY_LABELS[transaction.category]}
        </Text>
      </Table.Td>
      <Table.Td data-label="Description and remarks">
        <Text fz="sm">{transaction.description}</Text>
        {transaction.remark && (
          <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {transaction.remark}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="Amount" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
        <Amount value={transaction.amount} fz="sm" fw={600} />
      </Table.Td>
      <Table.Td data-label="Status" style={{ minWidth: 96 }}>
        <Badge variant="light" tt="none" color={STATUS_COLORS[transaction.transaction_status]}>
          {TRANSACTION_STATUS_LABELS[transaction.transaction_status]}
        </Badge>
      </Table.Td>
      <Table.Td data-label="Receipt" w={48}>
        {action && <ReceiptMenu transaction={transaction} action={action} />}
        {transaction.transaction_status === 'PAYMENT_INTENT_CREATED' && <PendingCheckoutMenu transaction={transaction} />}
      </Table.Td>
    </Table.Tr>
  );
}

/** 'MMM D, YYYY h:mm A' with the time on its own line, so the column stays narrow. */
function DateTime({ value }: { value: string }) {
  const formatted = formatDateTime(value);
  const [, day = formatted, time = ''] = /^(.*\d{4}) (.*)$/.exec(formatted) ?? [];
  return (
    <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
      {day}{' '}
      <Text span fz="xs" c="dimmed" display="block">
        {time}
      </Text>
    </Text>
  );
}

/** A checkout still waiting for payment can be cancelled from its row (it would otherwise close after a day). */
function PendingCheckoutMenu({ transaction }: { transaction: Transaction }) {
  const cancel = useCancelPendingCheckout();
  const onCancel = () =>
    cancel.mutate(transaction.transaction_id, {
      onSuccess: () => notifySuccess(MESSAGES.checkoutCancelled),
      onError: (error) => notifyError(error),
    });
  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${transaction.transaction_id}`} loading={cancel.isPending}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconX size={16} />} onClick={onCancel}>
          Cancel checkout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function ReceiptMenu({ transaction, action }: { transaction: Transaction; action: 'download' | 'admin-warning' }) {
  const download = useDownloadReceipt();
  const onDownload = () => {
    if (action === 'admin-warning') {
      notifyWarning(MESSAGES.adminReceiptNotDownloadable);
      return;
    }
    download.mutate(transaction.transaction_id, {
      onError: (error) => notifyError(error),
    });
  };
  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Receipt menu for ${transaction.transaction_id}`}
          loading={download.isPending}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconDownload size={16} />} onClick={onDownload}>
          Download Receipt
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
