import { Alert, Progress, Stack, Text } from '@mantine/core';
import { shapeLabel, sizeSpecOf, type Cluster } from '@kumo/contract';
import { IconMaximize } from '../../components/icons';
import { useClusterDetails } from './api/cluster-details';

/** The query engines' own nodes: the build node runs a query engine service of its own, which resizing leaves alone. */
const QUERY_ENGINE_HOST = /^kumo-qe-\d/;
const ONLINE = new Set(['Running', 'Online']);
/** While engines come and go the nodes are read more often than the page's own poll. */
const RESIZE_POLL_MS = 5_000;

/**
 * While a running cluster is resized: how many query engines of the new shape are online out of how many it will have.
 * Engines are added or replaced one at a time (make before break), so the count climbs step by step.
 */
export function ResizeProgress({ cluster }: { cluster: Pick<Cluster, 'deployment_id' | 'status' | 'resizing_to'> }) {
  const target = cluster.resizing_to;
  const resizingOnline = target !== null && cluster.status === 'ONLINE';
  const nodes = useClusterDetails(cluster.deployment_id, 'CURRENT', { refetchInterval: resizingOnline ? RESIZE_POLL_MS : false });
  if (!resizingOnline) return null;

  const instanceType = sizeSpecOf(target.size).instance_type;
  const ready = (nodes.data?.nodes ?? []).filter(
    (node) => QUERY_ENGINE_HOST.test(node.host) && node.instance_type === instanceType && ONLINE.has(node.node_status),
  ).length;
  const done = Math.min(ready, target.query_engines);
  const label = `${done} of ${target.query_engines} query engines of ${shapeLabel(target.size, target.query_engines)} online`;
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconMaximize size={18} />}
      title={`Resizing to ${shapeLabel(target.size, target.query_engines)}`}
    >
      <Stack gap={6}>
        <Text fz="sm">{label}. The cluster stays online; each engine is added before an old one leaves.</Text>
        <Progress value={(done / target.query_engines) * 100} aria-label="Resize progress" aria-valuetext={label} />
      </Stack>
    </Alert>
  );
}
