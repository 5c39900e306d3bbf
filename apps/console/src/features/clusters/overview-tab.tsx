import { Badge, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { CLOUD_PROVIDER_LABELS, type Cluster } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { WhenNearView } from '../../components/when-near-view';
import { formatDateTime } from '../../lib/dates';
import { autoStopQuery } from './api/auto-stop';
import { useClusterDetails } from './api/cluster-details';
import { scheduleQuery } from './api/schedule';
import { timelineQuery } from './api/timeline';
import { AutoStopCard } from './auto-stop-card';
import { ClusterTimeline } from './cluster-timeline';
import { DetailsTable } from './details-table';
import { ResizeProgress } from './resize-progress';
import { ScheduleCard } from './schedule-card';

const NODE_COLUMNS = ['Node', 'Core', 'Node status', 'Service instance', 'Service status', 'Instance type'];
const RUNNING = new Set(['Running', 'Online']);

/** The cluster as it is now: where it runs, since when, its nodes, its auto-stop, its weekly schedule, and its timeline. */
export function OverviewTab({ cluster }: { cluster: Cluster }) {
  const current = useClusterDetails(cluster.deployment_id, 'CURRENT');
  return (
    <Stack gap="xl">
      <ResizeProgress cluster={cluster} />
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
      <DetailsTable
        title="Nodes"
        columns={NODE_COLUMNS}
        minWidth={640}
        query={current}
        rows={(data) =>
          data.nodes.map((node) => (
            <Table.Tr key={`${node.host}-${node.service_name}`}>
              <Table.Td data-label="Node" ff="monospace" fz="sm">
                {node.host}
              </Table.Td>
              <Table.Td data-label="Core">{node.core}</Table.Td>
              <Table.Td data-label="Node status">
                <StatusBadge value={node.node_status} />
              </Table.Td>
              <Table.Td data-label="Service instance" fz="sm">
                {node.service_name}
              </Table.Td>
              <Table.Td data-label="Service status">
                <StatusBadge value={node.status} />
              </Table.Td>
              <Table.Td data-label="Instance type" ff="monospace" fz="sm">
                {node.instance_type}
              </Table.Td>
            </Table.Tr>
          ))
        }
      />
      {/* Below the nodes: each drawn on its own as it comes into sight, or once the page is quiet. */}
      <WhenNearView minHeight={80} whenIdle reads={() => [autoStopQuery(cluster.deployment_id)]}>
        <AutoStopCard deploymentId={cluster.deployment_id} />
      </WhenNearView>
      <WhenNearView minHeight={80} whenIdle reads={() => [scheduleQuery(cluster.deployment_id)]}>
        <ScheduleCard deploymentId={cluster.deployment_id} />
      </WhenNearView>
      <WhenNearView minHeight={80} whenIdle reads={() => [timelineQuery(cluster.deployment_id)]}>
        <ClusterTimeline deploymentId={cluster.deployment_id} />
      </WhenNearView>
    </Stack>
  );
}

/** A status in full at any width: a narrow cell never cuts it to "Runni…". */
function StatusBadge({ value }: { value: string }) {
  return (
    <Badge
      variant="light"
      tt="none"
      color={RUNNING.has(value) ? 'teal' : 'gray'}
      maw="none"
      style={{ flexShrink: 0 }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {value}
    </Badge>
  );
}
