import { ActionIcon, Badge, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { MESSAGES, UNPAID_CHECKOUT_LABELS, type Transaction, type TransactionStatus } from '@kumo/contract';
import { IconDots, IconX } from '../../components/icons';
import { Amount } from '../../components/amount';
import { notifyError, notifySuccess } from '../../components/notify';
import classes from '../../components/stacked-table.module.css';
import { formatDateTime } from '../../lib/dates';
import { useCancelPendingCheckout } from './api/cancel-pending-checkout';
import { DescriptionCell, MoneyTableHead } from './money-table-parts';

const STATE_COLORS: Record<Exclude<TransactionStatus, 'SUCCESSFUL'>, string> = {
  PAYMENT_INTENT_CREATED: 'yellow',
  PROCESSING: 'blue',
  FAILED: 'red',
  CANCELLED: 'gray',
};

/**
 * Checkouts that moved no money (awaiting payment, processing, failed, cancelled), in a small section of their own
 * above the entries: they are not part of the history's balance, and a paid top-up beside an abandoned one no longer
 * reads as two.
 */
export function UnpaidCheckouts({ checkouts }: { checkouts: Transaction[] }) {
  return (
    <Stack gap={4} component="section" aria-labelledby="unpaid-checkouts-title">
      <Title order={3} fz="sm" id="unpaid-checkouts-title">
        Checkouts not paid
      </Title>
      <Text fz="xs" c="dimmed">
        No money moved for these; they are not in the balance.
      </Text>
      <Table verticalSpacing={6} horizontalSpacing={8} aria-labelledby="unpaid-checkouts-title" className={classes.table}>
        <MoneyTableHead columns={['Opened', 'Description', 'Amount', 'State']} moneyColumns={['Amount']} />
        <Table.Tbody>
          {checkouts.map((checkout) => {
            const state = checkout.transaction_status as Exclude<TransactionStatus, 'SUCCESSFUL'>;
            return (
              <Table.Tr key={checkout.transaction_id}>
                <Table.Td data-label="Opened">
                  <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(checkout.transaction_date)}
                  </Text>
                </Table.Td>
                <DescriptionCell label="Description" description={checkout.description} remark={checkout.remark} />
                <Table.Td data-label="Amount" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  <Amount value={checkout.amount} fz="sm" />
                </Table.Td>
                <Table.Td data-label="State">
                  <Badge variant="light" tt="none" color={STATE_COLORS[state]}>
                    {UNPAID_CHECKOUT_LABELS[state]}
                  </Badge>
                </Table.Td>
                <Table.Td data-label="Actions" w={48}>
                  {state === 'PAYMENT_INTENT_CREATED' && <CancelCheckoutMenu checkout={checkout} />}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** A checkout still awaiting payment can be cancelled here (it would otherwise close after a day). */
function CancelCheckoutMenu({ checkout }: { checkout: Transaction }) {
  const cancel = useCancelPendingCheckout();
  const onCancel = () =>
    cancel.mutate(checkout.transaction_id, {
      onSuccess: () => notifySuccess(MESSAGES.checkoutCancelled),
      onError: (error) => notifyError(error),
    });
  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${checkout.transaction_id}`} loading={cancel.isPending}>
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
