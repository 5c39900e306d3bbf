import { Badge, Button, Group, ScrollArea, Table, Text } from '@mantine/core';
import type { SqlResult } from '@kumo/contract';
import { saveBlob } from '../../lib/download-file';

/** A cell as text: lists and structs as JSON, nothing as NULL. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function toCsv(result: SqlResult): string {
  const lines = [result.columns.map((column) => csvField(column.name)).join(',')];
  for (const row of result.rows) lines.push(row.map((value) => csvField(value === null ? '' : cellText(value))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The answer of a query: its columns with their types, the rows (the first 1,000), and a CSV of them. */
export function SqlResults({ result }: { result: SqlResult }) {
  return (
    <>
      <Group justify="space-between" mt="md" gap="sm">
        <Text fz="sm" aria-live="polite">
          {result.row_count.toLocaleString('en-US')} {result.row_count === 1 ? 'row' : 'rows'} in {result.elapsed_ms} ms
          {result.truncated ? ` (the first ${result.row_count.toLocaleString('en-US')} only)` : ''}
        </Text>
        <Button
          size="xs"
          variant="default"
          disabled={result.columns.length === 0}
          onClick={() => saveBlob(new Blob([toCsv(result)], { type: 'text/csv;charset=utf-8' }), 'query-result.csv')}
        >
          Download CSV
        </Button>
      </Group>
      {result.columns.length > 0 && (
        // Focusable, so a result wider or longer than its box can be scrolled by keyboard (axe: scrollable-region-focusable).
        <ScrollArea.Autosize mah={420} mt="xs" type="auto" viewportProps={{ tabIndex: 0 }}>
          {/* As wide as its cells need (they do not wrap), scrolling inside the box on a narrow screen. */}
          <Table striped withTableBorder fz="sm" aria-label="Query result" style={{ width: 'max-content', minWidth: '100%' }}>
            <Table.Thead>
              <Table.Tr>
                {result.columns.map((column, index) => (
                  <Table.Th key={index} style={{ whiteSpace: 'nowrap' }}>
                    {column.name}{' '}
                    <Badge size="xs" variant="light" color="gray" tt="none">
                      {column.type}
                    </Badge>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.rows.map((row, rowIndex) => (
                <Table.Tr key={rowIndex}>
                  {row.map((value, index) => (
                    <Table.Td key={index} c={value === null ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
                      {cellText(value)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </>
  );
}
