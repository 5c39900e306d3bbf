import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Text } from '@mantine/core';
import { canClusterDo, isClusterGone, shapeLabel, type Cluster, type ClusterStatus } from '@kumo/contract';
import { IconMaximize, IconDots, IconEye, IconPlayerPlay, IconPlayerStop, IconTrash } from '../../components/icons';
import { READ_ONLY_VIEW_REASON, useReadOnlyView } from '../../lib/read-only-view';
import { StartClusterDialog } from './start-cluster-dialog';
import { ResizeClusterDialog } from './resize-cluster-dialog';
import { StopClusterDialog } from './stop-cluster-dialog';
import { usePowerAction } from './use-power-action';

const IN_TRANSITION: readonly ClusterStatus[] = ['STARTING', 'STOPPING', 'DELETING', 'DELETE_IN_PROGRESS'];

/**
 * What the cluster's header offers (spec section 4): Start when offline, Stop (after a confirmation)
 * when online, Delete in the ellipsis menu. Nothing while it deploys; everything disabled while it
 * starts, stops or is deleted; Delete hidden while a start or stop request is on its way.
 */
export function clusterActionsFor(status: ClusterStatus, requestPending: boolean) {
  const offered = status !== 'DEPLOYING' && !isClusterGone(status);
  const disabled = IN_TRANSITION.includes(status) || requestPending;
  return {
    start: offered && (canClusterDo('start', status) || status === 'STARTING'),
    stop: offered && (canClusterDo('stop', status) || status === 'STOPPING'),
    menu: offered,
    deleteItem: offered && !requestPending,
    deleteEnabled: canClusterDo('delete', status),
    resize: status === 'ONLINE' || status === 'OFFLINE',
    disabled,
  };
}

export type ActionCluster = Pick<Cluster, 'deployment_id' | 'cluster_name' | 'subscription_name' | 'status'>;

/** `onDelete` opens the page's delete dialog, which outlives this header when the cluster leaves the list. */
export function ClusterActions({
  cluster,
  onDelete,
}: {
  cluster: ActionCluster & Pick<Cluster, 'subscription_id' | 'backup_region' | 'size' | 'query_engines' | 'resizing_to'>;
  onDelete: (cluster: ActionCluster) => void;
}) {
  const power = usePowerAction();
  const [confirmingStop, setConfirmingStop] = useState(false);
  // Start asks first, with what the cluster will cost per hour (beyond the spec: a cost preview before spending).
  const [confirmingStart, setConfirmingStart] = useState(false);
  const [resizing, setResizing] = useState(false);
  const actions = clusterActionsFor(cluster.status, power.isPending);
  const readOnly = useReadOnlyView();

  // A staff member's view changes nothing: no action to offer only for the server to refuse it.
  if (readOnly)
    return (
      <Group gap={6} wrap="nowrap" c="dimmed" title={READ_ONLY_VIEW_REASON}>
        <IconEye size={16} />
        <Text fz="sm">Read-only view</Text>
      </Group>
    );

  return (
    <Group gap="xs" wrap="nowrap">
      {actions.start && (
        <Button
          variant="light"
          color="teal"
          leftSection={<IconPlayerPlay size={16} />}
          disabled={actions.disabled}
          loading={power.isPending}
          onClick={() => setConfirmingStart(true)}
        >
          Start
        </Button>
      )}
      {actions.stop && (
        <Button
          variant="light"
          color="red"
          leftSection={<IconPlayerStop size={16} />}
          disabled={actions.disabled}
          onClick={() => setConfirmingStop(true)}
        >
          Stop
        </Button>
      )}
      {actions.resize && (
        <Button
          variant="light"
          leftSection={<IconMaximize size={16} />}
          disabled={actions.disabled || cluster.resizing_to !== null}
          title={cluster.resizing_to ? `Resizing to ${shapeLabel(cluster.resizing_to.size, cluster.resizing_to.query_engines)}` : undefined}
          onClick={() => setResizing(true)}
        >
          {cluster.resizing_to ? 'Resizing…' : 'Resize'}
        </Button>
      )}
      {actions.menu && (
        <Menu position="bottom-end" shadow="md" width={200} disabled={actions.disabled}>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              disabled={actions.disabled}
              aria-label={`More actions for ${cluster.cluster_name}`}
            >
              <IconDots size={20} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {actions.deleteItem && (
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={16} />}
                disabled={!actions.deleteEnabled}
                onClick={() => onDelete(cluster)}
              >
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      )}
      <StartClusterDialog
        cluster={confirmingStart ? cluster : null}
        starting={power.isPending}
        onClose={() => setConfirmingStart(false)}
        onConfirm={() => power.run(cluster.deployment_id, 'start', () => setConfirmingStart(false))}
      />
      <ResizeClusterDialog cluster={resizing ? cluster : null} onClose={() => setResizing(false)} />
      <StopClusterDialog
        cluster={confirmingStop ? cluster : null}
        stopping={power.isPending}
        onClose={() => setConfirmingStop(false)}
        onConfirm={() => power.run(cluster.deployment_id, 'stop', () => setConfirmingStop(false))}
      />
    </Group>
  );
}
