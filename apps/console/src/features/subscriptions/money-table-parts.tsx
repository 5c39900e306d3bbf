import { Table, Text, VisuallyHidden } from '@mantine/core';

/** The header row of a table of money lines: money columns read right-aligned, and a last column of row actions. */
export function MoneyTableHead({ columns, moneyColumns }: { columns: readonly string[]; moneyColumns: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((column) => (
          <Table.Th
            key={column}
            c="dimmed"
            fz="xs"
            tt="uppercase"
            style={moneyColumns.includes(column) ? { textAlign: 'right' } : undefined}
          >
            {column}
          </Table.Th>
        ))}
        <Table.Th>
          <VisuallyHidden>Actions</VisuallyHidden>
        </Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}

/** A money line's description, with its remark beneath (a remark may be one long word, such as an id). */
export function DescriptionCell({ label, description, remark }: { label: string; description: string; remark: string | null | undefined }) {
  return (
    <Table.Td data-label={label}>
      <Text fz="sm">{description}</Text>
      {remark && (
        <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {remark}
        </Text>
      )}
    </Table.Td>
  );
}
