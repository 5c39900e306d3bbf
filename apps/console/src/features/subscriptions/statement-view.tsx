import { SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { STATEMENT_TRANSFER_LABELS, STATEMENT_USAGE_LABELS, staffAdditionLabel, type Statement } from '@kumo/contract';
import { formatUtcDate } from '../../lib/dates';
import { formatUsd } from '../../lib/format';

type Movement = { key: string; date: string; label: string; amount: number };

/** Every line that moved the balance in the month, in the order the PDF prints them; usage follows them. */
function movementLines(s: Statement): Movement[] {
  return [
    ...s.top_ups.map((t) => ({
      key: `top-up-${t.receipt_id}`,
      date: t.date,
      label: `${t.method === 'AUTOMATIC' ? 'Automatic top-up' : 'Card top-up'} ${t.receipt_id}`,
      amount: t.amount,
    })),
    ...s.staff_additions.map((t, i) => ({ key: `staff-${i}`, date: t.date, label: staffAdditionLabel(t.reason), amount: t.amount })),
    ...s.free_credits_granted.map((t, i) => ({ key: `granted-${i}`, date: t.date, label: 'Free credits granted', amount: t.amount })),
    ...s.free_credits_expired.map((t, i) => ({ key: `expired-${i}`, date: t.date, label: 'Free credits expired', amount: t.amount })),
    ...s.refunds.map((t, i) => ({ key: `refund-${i}`, date: t.date, label: 'Refund to card', amount: t.amount })),
    ...s.transfers.map((t, i) => ({ key: `transfer-${i}`, date: t.date, label: STATEMENT_TRANSFER_LABELS[t.direction], amount: t.amount })),
  ];
}

/** One month's statement: the balance it opened and closed with, and each movement in between. */
export function StatementView({ statement }: { statement: Statement }) {
  const lines = movementLines(statement);
  return (
    <Stack gap="sm" component="section" aria-labelledby="statement-heading">
      <Title order={3} fz="md" px="xs" id="statement-heading">
        Statement for {statement.month}
      </Title>
      {/* Inset like the tables' cells, so the totals line up with the text under them. */}
      <SimpleGrid cols={{ base: 2, sm: 4 }} px="xs">
        <Total label="Opening balance" amount={statement.opening_balance} />
        <Total label="Usage" amount={-statement.usage.total} />
        <Total label="Movements" amount={statement.movements} />
        <Total label="Closing balance" amount={statement.closing_balance} />
      </SimpleGrid>
      {/* Two columns, the date under each movement, so a phone shows the amounts without scrolling sideways. */}
      <Table aria-label={`Movements in ${statement.month}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Movement</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.key}>
              <Table.Td>
                <Text fz="sm">{line.label}</Text>
                <Text fz="xs" c="dimmed">
                  {formatUtcDate(line.date)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{formatUsd(line.amount)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td>{STATEMENT_USAGE_LABELS.month(statement.month)}</Table.Td>
            <Table.Td ta="right">{formatUsd(-statement.usage.total)}</Table.Td>
          </Table.Tr>
          {/* The debits of other months' hours, apart, so the lines add up to the closing balance. */}
          {statement.usage.earlier_months.map((u) => (
            <Table.Tr key={`earlier-${u.month}`}>
              <Table.Td>{STATEMENT_USAGE_LABELS.earlier(u.month, statement.month)}</Table.Td>
              <Table.Td ta="right">{formatUsd(-u.amount)}</Table.Td>
            </Table.Tr>
          ))}
          {statement.usage.posted_later !== 0 && (
            <Table.Tr>
              <Table.Td>{STATEMENT_USAGE_LABELS.later(statement.month)}</Table.Td>
              <Table.Td ta="right">{formatUsd(statement.usage.posted_later)}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** A labelled amount, read by assistive technology as one group. */
function Total({ label, amount }: { label: string; amount: number }) {
  return (
    <div role="group" aria-label={label}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" fw={600}>
        {formatUsd(amount)}
      </Text>
    </div>
  );
}
