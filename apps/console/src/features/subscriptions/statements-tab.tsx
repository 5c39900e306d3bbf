import { useState } from 'react';
import { Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { statementMonthsSince, type Subscription } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { formatUsd } from '../../lib/format';
import { useStatement, useStatementPdf } from './api/statements';

/** The subscription's monthly statements since it began: each viewed here (the JSON) or downloaded as PDF. */
export function StatementsTab({ subscription }: { subscription: Subscription }) {
  const months = statementMonthsSince(new Date(subscription.created_at), new Date());
  const [open, setOpen] = useState<string | null>(null);
  const statement = useStatement(subscription.subscription_id, open);
  const pdf = useStatementPdf(subscription.subscription_id);
  return (
    <Stack gap="md">
      <Table>
        <Table.Tbody>
          {months.map((month) => (
            <Table.Tr key={month}>
              <Table.Td>{month}</Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end">
                  <Button size="xs" variant="subtle" onClick={() => setOpen(month)}>
                    View
                  </Button>
                  <Button size="xs" variant="default" loading={pdf.isPending && pdf.variables === month} onClick={() => pdf.mutate(month)}>
                    PDF
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {statement.error && <ErrorAlert error={statement.error} />}
      {statement.data && (
        <SimpleGrid cols={{ base: 1, sm: 4 }} aria-label={`Statement ${statement.data.month}`}>
          <Text fz="sm">Opening balance: {formatUsd(statement.data.opening_balance)}</Text>
          <Text fz="sm">Usage: {formatUsd(statement.data.usage.total)}</Text>
          <Text fz="sm">Movements: {formatUsd(statement.data.movements)}</Text>
          <Text fz="sm">Closing balance: {formatUsd(statement.data.closing_balance)}</Text>
        </SimpleGrid>
      )}
    </Stack>
  );
}
