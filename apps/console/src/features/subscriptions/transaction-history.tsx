import { useState, type ReactNode } from 'react';
import { ActionIcon, Button, Center, EmptyState, Loader, Menu, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import {
  MESSAGES,
  TRANSACTION_CATEGORY_LABELS,
  TRANSACTION_KINDS,
  TRANSACTION_KIND_LABELS,
  receiptAction,
  type Transaction,
  type TransactionKind,
} from '@kumo/contract';
import { IconDots, IconDownload, IconReceipt } from '../../components/icons';
import { formatDateTime } from '../../lib/dates';
import { useCreditTransactions } from './api/credit-transactions';
import { useDownloadReceipt } from './api/download-receipt';
import { useLoadMoreWhenVisible } from '../../lib/scroll';
import classes from '../../components/stacked-table.module.css';
import { notifyError, notifyWarning } from '../../components/notify';
import { ErrorAlert } from '../../components/error-alert';
import { Amount } from '../../components/amount';
import { UnpaidCheckouts } from './unpaid-checkouts';
import { DescriptionCell, MoneyTableHead } from './money-table-parts';

/**
 * The specification's columns with the balance after each entry in place of Status: every entry here is money that moved
 * (Success); the checkouts that moved none, the only ones with another state, are listed apart with theirs.
 */
const COLUMNS = ['ID', 'Receipt ID', 'Date', 'Category', 'Description and remarks', 'Amount', 'Balance'];

const KIND_OPTIONS = [
  { value: 'ALL', label: 'All entries' },
  ...TRANSACTION_KINDS.map((kind) => ({ value: kind, label: TRANSACTION_KIND_LABELS[kind] })),
];

/**
 * The subscription's transactions at the page's own height (the page scrolls, no box inside it): the ledger's entries,
 * 20 at a time, each with the balance after it, the next page loading as the end of the list comes into view (or with
 * Load more); filtered by kind on the server; the checkouts that moved no money apart, above them.
 */
export function TransactionHistory({ subscriptionId }: { subscriptionId: string }) {
  const [kind, setKind] = useState<TransactionKind | null>(null);
  const query = useCreditTransactions(subscriptionId, kind);
  const sentinel = useLoadMoreWhenVisible(query);
  const rows = query.data?.pages.flatMap((page) => page.content) ?? [];
  const unpaid = query.data?.pages[0]?.unpaid_checkouts ?? [];

  const filter = (
    <Select
      label="Show"
      data={KIND_OPTIONS}
      value={kind ?? 'ALL'}
      onChange={(value) => setKind(value && value !== 'ALL' ? (value as TransactionKind) : null)}
      allowDeselect={false}
      w={220}
      maw="100%"
    />
  );

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Center py="xl">
        <Loader size="sm" aria-label="Loading transactions" />
      </Center>
    );
  } else if (query.isError) {
    body = <ErrorAlert error={query.error} />;
  } else if (rows.length === 0 && unpaid.length === 0) {
    body = (
      <EmptyState
        variant="light"
        icon={<IconReceipt size={24} />}
        title={kind ? `No ${TRANSACTION_KIND_LABELS[kind].toLowerCase()} yet.` : MESSAGES.noTransactions}
        py="xl"
      />
    );
  } else {
    body = (
      <>
        {unpaid.length > 0 && <UnpaidCheckouts checkouts={unpaid} />}
        {rows.length > 0 && (
          <Table
            verticalSpacing="sm"
            // 6 px beside each cell: at 1366 px the whole table, receipt menu and balance included, fits its card.
            horizontalSpacing={6}
            highlightOnHover
            aria-label="Transaction history"
            className={classes.table}
          >
            <MoneyTableHead columns={COLUMNS} moneyColumns={['Amount', 'Balance']} />
            <Table.Tbody>
              {rows.map((transaction) => (
                <TransactionRow key={transaction.transaction_id} transaction={transaction} />
              ))}
            </Table.Tbody>
          </Table>
        )}
        <div ref={sentinel} />
        {query.hasNextPage && (
          <Center>
            <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
              Load more
            </Button>
          </Center>
        )}
      </>
    );
  }

  return (
    <Stack gap="md">
      {filter}
      {body}
    </Stack>
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
      <DescriptionCell label="Description and remarks" description={transaction.description} remark={transaction.remark} />
      <Table.Td data-label="Amount" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
        <Amount value={transaction.amount} fz="sm" fw={600} />
      </Table.Td>
      <Table.Td data-label="Balance" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
        {transaction.balance_after === null ? '—' : <Amount value={transaction.balance_after} fz="sm" />}
      </Table.Td>
      <Table.Td data-label="Receipt" w={48}>
        {action && <ReceiptMenu transaction={transaction} action={action} />}
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
