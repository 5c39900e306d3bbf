import { useState } from 'react';
import { Badge, Button, Center, Group, Loader, Menu, Modal, Select, SimpleGrid, Table, Text } from '@mantine/core';
import {
  ADMIN_MESSAGES,
  CLUSTER_STATUS_COLORS,
  CLUSTER_STATUS_LABELS,
  clusterDeletionStartedMessage,
  shapeLabel,
  type Cluster,
  type ClusterStatus,
} from '@kumo/contract';
import { DetailField } from '../../../components/detail-field';
import { DisabledWithReason } from '../../../components/disabled-with-reason';
import { IconDots } from '../../../components/icons';
import { api } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { useAdminPages, useCustomerDetail } from '../api/customer-detail';
import { useNodeDetails } from '../api/customer-tabs';
import { downloadDeploymentTemplate } from '../api/downloads';
import { customerKeys } from '../api/keys';
import { FourEyesModal } from '../four-eyes-modal';
import { openManager } from '../open-manager';
import { Permission, usePermission } from '../permission';
import { PagedTable } from './paged-table';
import { notifyError } from '../../../components/notify';
import { ErrorAlert } from '../../../components/error-alert';

function ClusterStatusText({ status }: { status: ClusterStatus }) {
  return (
    <Badge variant="light" color={CLUSTER_STATUS_COLORS[status]} data-status={status}>
      {CLUSTER_STATUS_LABELS[status]}
    </Badge>
  );
}

/** The customer's clusters with the staff's actions on each (Clusters tab). */
export function ClustersTab({ userId }: { userId: string }) {
  const table = usePermission('customer_cluster_table');
  const [viewing, setViewing] = useState<Cluster | null>(null);
  const [deleting, setDeleting] = useState<Cluster | null>(null);
  const customer = useCustomerDetail(userId);
  const [subscriptionId, setSubscriptionId] = useState<string | null>(null);
  const subscriptions = useAdminPages(
    customerKeys.tab(userId, 'subscriptions'),
    (page, size, signal) => api.get(`/api/admin/view-subscriptions/${userId}`, { query: { page, size }, signal }),
    table.visible,
  );
  const pages = useAdminPages(
    customerKeys.tab(userId, 'clusters', subscriptionId ?? ''),
    (page, size, signal) =>
      api.get('/api/admin/cluster/view', {
        query: subscriptionId ? { userId, page, size, subscriptionId } : { userId, page, size },
        signal,
      }),
    table.visible,
  );
  if (!table.visible) return null;

  return (
    <Permission name="customer_cluster_table">
      {subscriptions.items.length > 0 && (
        <Select
          label="Subscription"
          placeholder="All subscriptions"
          data={subscriptions.items.map((s) => ({ value: s.subscription_id, label: s.subscription_name }))}
          value={subscriptionId}
          onChange={setSubscriptionId}
          clearable
          maw={320}
          mb="sm"
        />
      )}
      <PagedTable
        pages={pages}
        label="Clusters"
        empty={subscriptionId ? ADMIN_MESSAGES.noClustersInSubscription : ADMIN_MESSAGES.noClusters}
        head={
          <Table.Tr>
            {['Name', 'Status', 'Size', 'QE capacity', 'Region', 'Subscription', 'Deployed on', 'Actions'].map((c) => (
              <Table.Th key={c}>{c}</Table.Th>
            ))}
          </Table.Tr>
        }
        row={(cluster) => (
          <Table.Tr key={cluster.deployment_id}>
            <Table.Td>{cluster.cluster_name}</Table.Td>
            <Table.Td>
              <ClusterStatusText status={cluster.status} />
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {shapeLabel(cluster.size, cluster.query_engines)}
              {cluster.resizing_to && ` → ${shapeLabel(cluster.resizing_to.size, cluster.resizing_to.query_engines)}`}
            </Table.Td>
            <Table.Td>{cluster.cluster_capacity}</Table.Td>
            <Table.Td>{cluster.region}</Table.Td>
            <Table.Td>{cluster.subscription_name}</Table.Td>
            <Table.Td>{formatDateTime(cluster.deployed_on) || '--'}</Table.Td>
            <Table.Td>
              <ClusterActions
                userId={userId}
                cluster={cluster}
                adminAccess={customer.data?.admin_access}
                onView={() => setViewing(cluster)}
                onDelete={() => setDeleting(cluster)}
              />
            </Table.Td>
          </Table.Tr>
        )}
      />
      <NodeDetailsDialog userId={userId} cluster={viewing} onClose={() => setViewing(null)} />
      <FourEyesModal
        opened={!!deleting}
        title="Delete Cluster"
        userId={userId}
        successMessage={deleting ? clusterDeletionStartedMessage(deleting.cluster_name, deleting.subscription_name) : ''}
        onClose={() => setDeleting(null)}
      >
        {(form) =>
          deleting && (
            <DeleteClusterForm
              cluster={deleting}
              pending={form.pending}
              error={form.error}
              onCancel={() => setDeleting(null)}
              onConfirm={() =>
                void form
                  .ask({ action_name: 'delete_cluster', user_id: userId, action_payload: { deployment_id: deleting.deployment_id } })
                  .catch(() => undefined)
              }
            />
          )
        }
      </FourEyesModal>
    </Permission>
  );
}

/**
 * Why staff cannot open a cluster's manager now, or null: the customer must allow the provider in (Manage KM Access
 * Rights) and the cluster must be online (spec section 4).
 */
export function openManagerReason(adminAccess: boolean | undefined, status: ClusterStatus): string | null {
  if (!adminAccess) return ADMIN_MESSAGES.managerProviderAccessOff;
  if (status !== 'ONLINE') return ADMIN_MESSAGES.managerClusterNotOnline;
  return null;
}

function ClusterActions({
  userId,
  cluster,
  adminAccess,
  onView,
  onDelete,
}: {
  userId: string;
  cluster: Cluster;
  /** Whether the customer lets the provider's staff into the manager. */
  adminAccess: boolean | undefined;
  onView: () => void;
  onDelete: () => void;
}) {
  const managerReason = openManagerReason(adminAccess, cluster.status);
  const view = usePermission('customer_cluster_view_details');
  const template = usePermission('customer_cluster_download_template');
  const manager = usePermission('customer_open_km');
  const remove = usePermission('customer_delete_cluster');
  const [opening, setOpening] = useState(false);
  const fail = (error: unknown) => notifyError(error);
  if (!view.visible && !template.visible && !manager.visible && !remove.visible) return null;

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="compact-sm" variant="subtle" aria-label={`Actions for ${cluster.cluster_name}`} loading={opening}>
          <IconDots size={18} />
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {view.visible && (
          <Menu.Item disabled={view.disabled} onClick={onView}>
            View Details
          </Menu.Item>
        )}
        {template.visible && (
          <Menu.Item
            disabled={template.disabled}
            onClick={() => void downloadDeploymentTemplate(userId, cluster.deployment_id).catch(fail)}
          >
            Download Deployment Template
          </Menu.Item>
        )}
        {manager.visible && managerReason && !manager.disabled ? (
          <DisabledWithReason reason={managerReason}>
            {(props) => (
              <Menu.Item
                {...props}
                c="dimmed"
                style={{ cursor: 'not-allowed' }}
                closeMenuOnClick={false}
                onClick={(event) => event.preventDefault()}
              >
                Open Manager
              </Menu.Item>
            )}
          </DisabledWithReason>
        ) : (
          manager.visible && (
            <Menu.Item
              disabled={manager.disabled}
              onClick={() => {
                setOpening(true);
                openManager(userId, cluster.deployment_id)
                  .catch(fail)
                  .finally(() => setOpening(false));
              }}
            >
              Open Manager
            </Menu.Item>
          )
        )}
        {remove.visible && (
          <Menu.Item color="red" disabled={remove.disabled || cluster.status === 'DELETED'} onClick={onDelete}>
            Delete Cluster
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

interface DeleteClusterFormProps {
  cluster: Cluster;
  pending: boolean;
  error: unknown;
  onCancel: () => void;
  onConfirm: () => void;
}

function DeleteClusterForm({ cluster, pending, error, onCancel, onConfirm }: DeleteClusterFormProps) {
  return (
    <>
      <Text fz="sm" mb="md">
        Delete <strong>{cluster.cluster_name}</strong> of {cluster.subscription_name}? Its servers, data and backups are removed; this
        cannot be undone. A second staff member approves it with a one-time password, and the customer&apos;s audit log records it.
      </Text>
      {error ? <ErrorAlert error={error} mb="sm" /> : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" loading={pending} onClick={onConfirm}>
          Delete
        </Button>
      </Group>
    </>
  );
}

function NodeDetailsDialog({ userId, cluster, onClose }: { userId: string; cluster: Cluster | null; onClose: () => void }) {
  const query = useNodeDetails(userId, cluster?.deployment_id);
  return (
    <Modal opened={!!cluster} onClose={onClose} title={cluster ? `${cluster.cluster_name} details` : ''} size="xl" centered>
      {query.isPending ? (
        <Center py="xl">
          <Loader size="sm" aria-label="Loading cluster details" />
        </Center>
      ) : query.isError ? (
        <ErrorAlert error={query.error} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
            <DetailField label="Status">
              <ClusterStatusText status={query.data.status} />
            </DetailField>
            <DetailField label="Region">
              <Text fz="sm">{query.data.region}</Text>
            </DetailField>
            <DetailField label="Version">
              <Text fz="sm">{query.data.kumo_version}</Text>
            </DetailField>
          </SimpleGrid>
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Nodes">
              <Table.Thead>
                <Table.Tr>
                  {['Node', 'Core', 'Node status', 'Service instance', 'Service status', 'Instance type'].map((c) => (
                    <Table.Th key={c}>{c}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.nodes.map((node) => (
                  <Table.Tr key={`${node.service_name}-${node.host}`}>
                    <Table.Td>{node.host}</Table.Td>
                    <Table.Td>{node.core}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{node.node_status}</Table.Td>
                    <Table.Td>{node.service_name}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{node.status}</Table.Td>
                    <Table.Td>{node.instance_type}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Modal>
  );
}
