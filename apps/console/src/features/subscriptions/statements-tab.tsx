import { useState } from 'react';
import { Button, Group, Stack, Table } from '@mantine/core';
import { statementMonthsSince, type Subscription } from '@kumo/contract';
import { ErrorAlert } from '../../components/error-alert';
import { useStatement, useStatementPdf } from './api/statements';
import { StatementView } from './statement-view';

/** The subscription's monthly statements since it began: each viewed here (the JSON) or downloaded as PDF. */
export function StatementsTab({ subscription }: { subscription: Subscription }) {
  const months = statementMonthsSince(new Date(subscription.created_at), new Date());
  const [open, setOpen] = useState<string | null>(null);
  const statement = useStatement(subscription.subscription_id, open);
  const pdf = useStatementPdf(subscription.subscription_id);
  return (
    <Stack gap="md">
      <Table aria-label="Monthly statements">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Month</Table.Th>
            <Table.Th ta="right">Statement</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {months.map((month) => (
            <Table.Tr key={month}>
              <Table.Td>{month}</Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end">
                  <Button size="xs" variant="subtle" aria-label={`View ${month}`} onClick={() => setOpen(month)}>
                    View
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`PDF of ${month}`}
                    loading={pdf.isPending && pdf.variables === month}
                    onClick={() => pdf.mutate(month)}
                  >
                    PDF
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {statement.error && <ErrorAlert error={statement.error} />}
      {statement.data && <StatementView statement={statement.data} />}
    </Stack>
  );
}
