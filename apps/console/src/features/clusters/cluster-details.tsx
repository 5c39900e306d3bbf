import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Center, EmptyState, Group, Loader, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { CLUSTER_MESSAGES, capacityLabel, type Cluster, type ClusterStatus } from '@kumo/contract';
import { DetailField } from '../../components/detail-field';
import { IconServer } from '../../components/icons';
import { STATUS_POLL_FAILURE_LIMIT, statusPollError, useDeploymentStatus } from './api/deployment-status';
import { useRefreshCluster } from './api/refresh-cluster';
import { CapacityBars } from './capacity-bars';
import { ClusterActions, type ActionCluster } from './cluster-actions';
import { ClusterStatusText } from './cluster-status';
import { DeploymentDetailsTab } from './deployment-details-tab';
import { ClusterLinks } from './cluster-links';
import { OverviewTab } from './overview-tab';
import { lazyChunk } from '../../lib/load-chunk';

// A cluster opens on Overview (Deployment Details while it deploys): those come with the page. The other tabs, with
// their forms and the contract's schemas they build, load when first opened, not with every cluster's first screen.
const CostAnalysisTab = lazyChunk(() => import('./cost-analysis-tab').then((m) => ({ default: m.CostAnalysisTab })));
const AuditLogsTab = lazyChunk(() => import('./audit-logs-tab').then((m) => ({ default: m.AuditLogsTab })));
const ManagerAccessTab = lazyChunk(() => import('./manager-access-tab').then((m) => ({ default: m.ManagerAccessTab })));
const SqlTab = lazyChunk(() => import('./sql-tab').then((m) => ({ default: m.SqlTab })));
const NetworkAccessTab = lazyChunk(() => import('./network-access-tab').then((m) => ({ default: m.NetworkAccessTab })));

type TabName = 'overview' | 'cost-analysis' | 'audit-logs' | 'manager-access' | 'sql' | 'network-access' | 'deployment-details';

/** Overview, Cost Analysis and Audit Logs mean nothing until the cluster exists (spec section 2). */
export const tabsDisabled = (status: ClusterStatus) => status === 'DEPLOYING' || status === 'FAILED';

interface ClusterDetailsProps {
  cluster: Cluster | undefined;
  loading: boolean;
  onDelete: (cluster: ActionCluster) => void;
}

export function ClusterDetails({ cluster, loading, onDelete }: ClusterDetailsProps) {
  if (!cluster) {
    return (
      <Card>
        {loading ? (
          <Center py={64}>
            <Loader size="sm" aria-label="Loading the cluster" />
          </Center>
        ) : (
          <EmptyState variant="light" icon={<IconServer size={24} />} title={CLUSTER_MESSAGES.clusterDetailsUnavailable} py={64} />
        )}
      </Card>
    );
  }
  // A fresh component per cluster: its tab and readings start over.
  return <SelectedCluster key={cluster.deployment_id} listed={cluster} onDelete={onDelete} />;
}

/**
 * The selected cluster: its latest status reading (polled every 15 seconds while it moves) laid over
 * the list's entry, which is read again whenever the two disagree so the list, capacity and links follow.
 */
function SelectedCluster({ listed, onDelete }: { listed: Cluster; onDelete: (cluster: ActionCluster) => void }) {
  const refreshCluster = useRefreshCluster();
  const statusQuery = useDeploymentStatus(listed.deployment_id);
  const reading = statusQuery.data;
  const status = reading?.status ?? listed.status;
  const capacity = reading?.cluster_capacity ?? listed.cluster_capacity;
  const stackStatus = reading ? reading.cluster_stack_status : listed.cluster_stack_status;
  const deploymentStatus = reading ? reading.kumo_cluster_deployment_status : listed.kumo_cluster_deployment_status;
  const [tab, setTab] = useState<TabName>(tabsDisabled(listed.status) ? 'deployment-details' : 'overview');

  useEffect(() => {
    if (!reading) return;
    if (reading.status === listed.status && reading.cluster_capacity === listed.cluster_capacity) return;
    // The list, its links and the readings of this cluster catch up with the change.
    refreshCluster(listed.deployment_id);
  }, [reading, listed.status, listed.cluster_capacity, listed.deployment_id, refreshCluster]);

  const cluster: Cluster = { ...listed, status, cluster_capacity: capacity };
  const disabled = tabsDisabled(status);
  const shownTab = disabled && tab !== 'deployment-details' ? 'deployment-details' : tab;

  return (
    <Card>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        {/* A basis of its own: on a phone the actions wrap below the name instead of squeezing it to a letter a line. */}
        <Stack gap={4} miw={0} style={{ flex: '1 1 14rem' }}>
          <Title order={2} fz="xl" style={{ overflowWrap: 'anywhere' }}>
            {cluster.cluster_name}
          </Title>
          <Text c="dimmed" fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {cluster.cluster_description || 'No description'}
          </Text>
        </Stack>
        <ClusterActions cluster={cluster} onDelete={onDelete} />
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 4 }} mt="lg" spacing="md">
        <DetailField label="Status">
          <ClusterStatusText status={status} />
        </DetailField>
        <DetailField label="Capacity">
          {status === 'ONLINE' ? (
            <Group gap="xs" wrap="nowrap">
              <CapacityBars capacity={capacity} />
              <Text fz="sm">{capacityLabel(capacity)}</Text>
            </Group>
          ) : (
            <Text fz="sm" c="dimmed">
              —
            </Text>
          )}
        </DetailField>
        <DetailField label="Region">
          <Text fz="sm">{cluster.region}</Text>
        </DetailField>
        <DetailField label="Version">
          <Text fz="sm">{cluster.kumo_version}</Text>
        </DetailField>
      </SimpleGrid>
      {statusQuery.failureCount > 0 && (
        <StatusReadingAlert
          error={statusQuery.failureReason}
          retrying={statusQuery.failureCount < STATUS_POLL_FAILURE_LIMIT}
          onCheckAgain={() => void statusQuery.refetch()}
        />
      )}

      <ClusterLinks deploymentId={cluster.deployment_id} status={status} />

      <Tabs value={shownTab} onChange={(value) => value && setTab(value as TabName)} mt="xl" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview" disabled={disabled}>
            Overview
          </Tabs.Tab>
          <Tabs.Tab value="cost-analysis" disabled={disabled}>
            Cost Analysis
          </Tabs.Tab>
          <Tabs.Tab value="audit-logs" disabled={disabled}>
            Audit Logs
          </Tabs.Tab>
          <Tabs.Tab value="manager-access" disabled={disabled}>
            Manager Access
          </Tabs.Tab>
          <Tabs.Tab value="sql" disabled={disabled}>
            SQL
          </Tabs.Tab>
          <Tabs.Tab value="network-access" disabled={disabled}>
            Network Access
          </Tabs.Tab>
          <Tabs.Tab value="deployment-details">Deployment Details</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <OverviewTab cluster={cluster} />
        </Tabs.Panel>
        <Tabs.Panel value="cost-analysis" pt="md">
          <LoadedTab>
            <CostAnalysisTab cluster={cluster} />
          </LoadedTab>
        </Tabs.Panel>
        <Tabs.Panel value="audit-logs" pt="md">
          <LoadedTab>
            <AuditLogsTab deploymentId={cluster.deployment_id} />
          </LoadedTab>
        </Tabs.Panel>
        <Tabs.Panel value="manager-access" pt="md">
          <LoadedTab>
            <ManagerAccessTab deploymentId={cluster.deployment_id} />
          </LoadedTab>
        </Tabs.Panel>
        <Tabs.Panel value="sql" pt="md">
          <LoadedTab>
            <SqlTab deploymentId={cluster.deployment_id} status={status} />
          </LoadedTab>
        </Tabs.Panel>
        <Tabs.Panel value="network-access" pt="md">
          <LoadedTab>
            <NetworkAccessTab deploymentId={cluster.deployment_id} />
          </LoadedTab>
        </Tabs.Panel>
        <Tabs.Panel value="deployment-details" pt="md">
          <DeploymentDetailsTab cluster={cluster} status={status} stackStatus={stackStatus} deploymentStatus={deploymentStatus} />
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}

/** A tab whose code loads when it is first opened: a loader in its panel until it arrives. */
function LoadedTab({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader size="sm" aria-label="Loading the tab" />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}

interface StatusReadingAlertProps {
  error: unknown;
  /** Whether the reading is tried again in 15 seconds. */
  retrying: boolean;
  onCheckAgain: () => void;
}

/** The status could not be read: what went wrong, and once the poll has given up, a way to read it again. */
function StatusReadingAlert({ error, retrying, onCheckAgain }: StatusReadingAlertProps) {
  return (
    <Alert color="red" variant="light" role="alert" mt="md" title={statusPollError(error)}>
      <Group justify="space-between" gap="sm">
        <Text fz="sm">{retrying ? CLUSTER_MESSAGES.statusRetrying : CLUSTER_MESSAGES.statusPollStopped}</Text>
        {!retrying && (
          <Button size="xs" variant="default" onClick={onCheckAgain}>
            {CLUSTER_MESSAGES.statusCheckAgain}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
