import { MESSAGES } from '@kumo/contract';
import { useNavigate } from 'react-router';
import { Button, Card, EmptyState, Group, Table, Text } from '@mantine/core';
import { IconPlus, IconServer } from '../../components/icons';

const COLUMNS = ['Cluster name', 'Subscription', 'Status', 'Capacity'];

export function ClustersCard() {
  const navigate = useNavigate();
  const newCluster = () => void navigate('/clusters', { state: { openCreateCluster: true } });

  return (
    <Card>
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Clusters</Text>
      </Group>
      <Table.ScrollContainer minWidth={520}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase">
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
        </Table>
      </Table.ScrollContainer>
      <EmptyState
        size="sm"
        variant="light"
        icon={<IconServer size={22} />}
        title={MESSAGES.noClusterDeployed}
        description="Clusters you deploy appear here with their status and capacity."
        py="xl"
      >
        <EmptyState.Actions>
          <Button leftSection={<IconPlus size={16} />} onClick={newCluster}>
            New Cluster
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}
