import { Link } from 'react-router';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { blockingClusterSchema, type BlockingCluster } from '@kumo/contract';
import { ApiError } from '../../lib/api-error';
import { clusterPath } from '../../lib/cluster-path';

/** The clusters a refused deletion names: the server lists them with SUBSCRIPTION_HAS_CLUSTERS. */
export function clustersRefusingDeletion(error: unknown): BlockingCluster[] | undefined {
  if (!(error instanceof ApiError) || error.code !== 'SUBSCRIPTION_HAS_CLUSTERS') return undefined;
  const body: object = error.body ?? {};
  const listed = blockingClusterSchema.array().safeParse('clusters' in body ? body.clusters : undefined);
  return listed.success ? listed.data : [];
}

interface BlockingClustersAlertProps {
  subscriptionId: string;
  message: string;
  clusters: BlockingCluster[];
  /** Following a link leaves the dialog. */
  onFollow: () => void;
}

/** Why the subscription cannot be deleted yet, with a link to each of its clusters that is not deleted. */
export function BlockingClustersAlert({ subscriptionId, message, clusters, onFollow }: BlockingClustersAlertProps) {
  return (
    <Alert color="yellow" variant="light" role="alert">
      <Text size="sm">{message}</Text>
      {clusters.length > 0 && (
        <List size="sm" mt="xs" aria-label="Clusters to delete first">
          {clusters.map((cluster) => (
            <List.Item key={cluster.deployment_id}>
              <Anchor component={Link} to={clusterPath(subscriptionId, cluster.deployment_id)} onClick={onFollow}>
                {cluster.cluster_name}
              </Anchor>
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
