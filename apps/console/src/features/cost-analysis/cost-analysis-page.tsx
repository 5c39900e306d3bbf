import { MESSAGES } from '@kumo/contract';
import { Card, EmptyState, Table } from '@mantine/core';
import { IconChart } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

const COLUMNS = ['Subscription name', 'Actual cost', 'Forecast', 'Balance'];

export function CostAnalysisPage() {
  return (
    <>
      <PageHeader title="Cost Analysis" description="Actual and forecast cost of each subscription this month." />
      <Card>
        <Table.ScrollContainer minWidth={520}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
          </Table>
        </Table.ScrollContainer>
        <EmptyState variant="light" icon={<IconChart size={24} />} title={MESSAGES.noUsageCost} py={48} />
      </Card>
    </>
  );
}
