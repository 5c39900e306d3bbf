import { memo, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Box, Button, Card, Group, Menu, Table, Text, VisuallyHidden } from '@mantine/core';
import { CLUSTER_MESSAGES, canClusterDo, type Cluster } from '@kumo/contract';
import { CardEmptyState, CardLoader } from '../../components/card-states';
import { IconArrowRight, IconPlayerPlay, IconPlayerStop, IconPlus, IconServer } from '../../components/icons';
import { useReadOnlyView } from '../../lib/read-only-view';
import { useClusterView } from './api/cluster-view';
import { CapacityBars } from './capacity-bars';
import { clusterPath } from './cluster-list';
import { ClusterStatusText } from './cluster-status';
import type { OpenCreateClusterState } from './clusters-page';
import { StopClusterDialog } from './stop-cluster-dialog';
import { usePowerAction } from './use-power-action';
import { ErrorAlert } from '../../components/error-alert';
import { RowMenu } from '../../components/row-menu';
import classes from '../../components/stacked-table.module.css';
import { formatDateTime } from '../../lib/dates';
import { useRevealedCount } from '../../lib/use-revealed-count';

/** The spec's clusters table (section 2, Tables). */
const COLUMNS = ['Name', 'Status', 'QE capacity', 'Region', 'Subscription', 'Deployed on'];

/**
 * Home's clusters table (spec section 2, Home and Tables): each cluster's name, status, query-engine capacity,
 * region, subscription and deployment date, with a row menu; on a phone each row is a card of its own.
 */
export function HomeClustersCard() {
  const navigate = useNavigate();
  const view = useClusterView();
  const power = usePowerAction();
  const [stopping, setStopping] = useState<Cluster | null>(null);
  // A staff member's view offers no New, Start or Stop: the server would refuse them.
  const readOnly = useReadOnlyView();
  const headingId = useId();
  const clusters = (view.data ?? []).flatMap((group) => group.clusters);
  // The first screen's rows render at once, the others in the tasks after it.
  const shown = useRevealedCount(clusters.length);
  const newCluster = () => {
    const state: OpenCreateClusterState = { openCreateCluster: true };
    void navigate('/clusters', { state });
  };

  return (
    <Card component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="sm">
        <Text fw={600} component="h2" fz="md" m={0} id={headingId}>
          Clusters
        </Text>
        {clusters.length > 0 && !readOnly && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={16} />} onClick={newCluster}>
            New Cluster
          </Button>
        )}
      </Group>
      {view.isPending ? (
        // As tall as the first rows (a phone shows one row as a card), so the cards below do not jump when they arrive.
        <CardLoader label="Loading clusters" mih={{ base: 400, sm: 240 }} />
      ) : view.isError ? (
        <ErrorAlert error={view.error} />
      ) : clusters.length === 0 ? (
        <CardEmptyState
          icon={<IconServer size={22} />}
          title={CLUSTER_MESSAGES.noClusterDeployed}
          description="Clusters you deploy appear here with their status and capacity."
          py="xl"
          action={
            readOnly ? undefined : (
              <Button leftSection={<IconPlus size={16} />} onClick={newCluster}>
                New Cluster
              </Button>
            )
          }
        />
      ) : (
        <Box style={{ overflowX: 'auto' }}>
          <Table verticalSpacing="sm" horizontalSpacing={8} miw={640} aria-label="Clusters" className={classes.table}>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column} c="dimmed" fz="xs" tt="uppercase">
                    {column}
                  </Table.Th>
                ))}
                <Table.Th w={48}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clusters.slice(0, shown).map((cluster) => (
                <ClusterRow
                  key={cluster.deployment_id}
                  cluster={cluster}
                  readOnly={readOnly}
                  loading={power.pendingFor === cluster.deployment_id}
                  busy={power.isPending}
                  onGo={() => void navigate(clusterPath(cluster.subscription_id, cluster.deployment_id))}
                  onStart={() => power.run(cluster.deployment_id, 'start')}
                  onStop={() => setStopping(cluster)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
      <StopClusterDialog
        cluster={stopping}
        stopping={power.isPending}
        onClose={() => setStopping(null)}
        onConfirm={() => stopping && power.run(stopping.deployment_id, 'stop', () => setStopping(null))}
      />
    </Card>
  );
}

interface ClusterRowProps {
  cluster: Cluster;
  readOnly: boolean;
  /** This cluster's start or stop is under way. */
  loading: boolean;
  /** A start or stop is under way, this cluster's or another's. */
  busy: boolean;
  onGo: () => void;
  onStart: () => void;
  onStop: () => void;
}

/**
 * One cluster's row. It renders again only when what it shows changes, so adding the rows below the first screen does
 * not render the earlier ones again. Its handlers call only what stays the same from render to render (the router's
 * navigate, the mutation's mutate, a state setter) with this row's cluster, so a row keeps the ones of its last render.
 */
const ClusterRow = memo(
  function ClusterRow({ cluster, readOnly, loading, busy, onGo, onStart, onStop }: ClusterRowProps) {
    return (
      <Table.Tr>
        <td className={classes.cell} data-label="Name" style={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {cluster.cluster_name}
        </td>
        <td className={classes.cell} data-label="Status">
          <ClusterStatusText status={cluster.status} />
        </td>
        <td className={classes.cell} data-label="QE capacity">
          {cluster.status === 'ONLINE' ? <CapacityBars capacity={cluster.cluster_capacity} size="sm" /> : '—'}
        </td>
        <td className={classes.cell} data-label="Region" style={{ whiteSpace: 'nowrap' }}>
          {cluster.region}
        </td>
        <td className={classes.cell} data-label="Subscription" style={{ overflowWrap: 'anywhere' }}>
          {cluster.subscription_name}
        </td>
        <td className={classes.cell} data-label="Deployed on">
          {formatDateTime(cluster.deployed_on) || '—'}
        </td>
        <td className={classes.cell} data-label="Actions">
          <RowMenu label={`Actions for ${cluster.cluster_name}`} loading={loading}>
            <Menu.Item leftSection={<IconArrowRight size={16} />} onClick={onGo}>
              Go to Cluster
            </Menu.Item>
            {!readOnly && canClusterDo('start', cluster.status) && (
              <Menu.Item leftSection={<IconPlayerPlay size={16} />} disabled={busy} onClick={onStart}>
                Start
              </Menu.Item>
            )}
            {!readOnly && canClusterDo('stop', cluster.status) && (
              <Menu.Item leftSection={<IconPlayerStop size={16} />} disabled={busy} onClick={onStop}>
                Stop
              </Menu.Item>
            )}
          </RowMenu>
        </td>
      </Table.Tr>
    );
  },
  (before, after) =>
    before.cluster === after.cluster &&
    before.readOnly === after.readOnly &&
    before.loading === after.loading &&
    before.busy === after.busy,
);
