import { Badge, Center, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { CLOUD_PROVIDER_LABELS, type Cluster } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { errorMessage } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format';
import { useClusterDetails } from './api/cluster-details';
import { statusColorClass } from './cluster-status';
import { ClusterTimeline } from './cluster-timeline';
import { ScheduleCard } from './schedule-card';

const NODE_COLUMNS = ['Node', 'Core', 'Node status', 'Service instance', 'Service status', 'Instance type'];
const RUNNING = new Set(['Running', 'Online']);

/** The cluster as it is now: where it runs, since when, its nodes, its weekly schedule, and its timeline. */
export function OverviewTab({ cluster }: { cluster: Cluster }) {
  const current = useClusterDetails(cluster.deployment_id, 'CURRENT');
  return (
    <Stack gap="xl">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
        <DetailField label="Cloud Provider">
          <Text fz="sm">{CLOUD_PROVIDER_LABELS[cluster.cloud_provider]}</Text>
        </DetailField>
        <DetailField label="Region">
          <Text fz="sm">{cluster.region}</Text>
        </DetailField>
        <DetailField label="Disaster Recovery">
          <Text fz="sm">{cluster.backup_region ? `On, backed up to ${cluster.backup_region}` : 'Off'}</Text>
        </DetailField>
        <DetailField label="Deployed On">
          <Text fz="sm">{formatDateTime(cluster.deployed_on) || '—'}</Text>
        </DetailField>
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={3} fz="md">
          Nodes
        </Title>
        {current.isPending ? (
          <Center py="md">
            <Loader size="sm" aria-label="Loading the nodes" />
          </Center>
        ) : current.isError ? (
          <Text className={statusColorClass('red')} fz="sm" role="alert">
            {errorMessage(current.error)}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" aria-label="Nodes">
              <Table.Thead>
                <Table.Tr>
                  {NODE_COLUMNS.map((column) => (
                    <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase">
                      {column}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {current.data.nodes.map((node) => (
                  <Table.Tr key={`${node.host}-${node.service_name}`}>
                    <Table.Td ff="monospace" fz="sm">
                      {node.host}
                    </Table.Td>
                    <Table.Td>{node.core}</Table.Td>
                    <Table.Td>
                      <StatusBadge value={node.node_status} />
                    </Table.Td>
                    <Table.Td fz="sm">{node.service_name}</Table.Td>
                    <Table.Td>
                      <StatusBadge value={node.status} />
                    </Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {node.instance_type}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <ScheduleCard deploymentId={cluster.deployment_id} />
      <ClusterTimeline deploymentId={cluster.deployment_id} />
    </Stack>
  );
}

function StatusBadge({ value }: { value: string }) {
  return (
    <Badge variant="light" tt="none" color={RUNNING.has(value) ? 'teal' : 'gray'}>
      {value}
    </Badge>
  );
}
