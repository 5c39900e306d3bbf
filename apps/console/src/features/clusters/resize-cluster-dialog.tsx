import { useState } from 'react';
import { Alert, Button, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { CLUSTER_SIZE_NAMES, shapeLabel, type Cluster, type ClusterSize } from '@kumo/contract';
import { formatUsd } from '../../lib/format-usd';
import { notifyError, notifySuccess } from '../../components/notify';
import { CapacityBars } from './capacity-bars';
import { EnginesSlider } from './create-cluster-size';
import { useClusterSizes, useResizeCluster, useResizePreview } from './api/resize';

type ResizedCluster = Pick<Cluster, 'deployment_id' | 'cluster_name' | 'status' | 'size' | 'query_engines'>;

const runway = (days: number | null) => (days === null ? 'No charges' : `${days} days`);

/** One side of the comparison: a shape, its capacity, its hourly cost and the runway with it. */
function ShapeColumn(props: { title: string; shape: string; engines: number; hourly?: number; runwayDays?: number | null }) {
  return (
    <Stack gap={4} data-testid={`resize-${props.title.toLowerCase()}`}>
      <Text fw={600}>{props.title}</Text>
      <Text>{props.shape}</Text>
      <CapacityBars capacity={props.engines} />
      <Text fz="sm">{props.hourly === undefined ? '…' : `${formatUsd(props.hourly)} per hour`}</Text>
      <Text fz="sm" c="dimmed">
        Runway: {props.runwayDays === undefined ? '…' : runway(props.runwayDays)}
      </Text>
    </Stack>
  );
}

/**
 * The Resize dialog: the size of the query engines and how many run, the current and proposed shape side by side with
 * the hourly cost and the runway before and after, then a confirmation. An online cluster stays online while its
 * engines move; an offline one takes the shape at its next start.
 */
export function ResizeClusterDialog({ cluster, onClose }: { cluster: ResizedCluster | null; onClose: () => void }) {
  return (
    <Modal opened={!!cluster} onClose={onClose} title="Resize cluster" centered size="lg">
      {cluster && <ResizeForm cluster={cluster} onClose={onClose} />}
    </Modal>
  );
}

function ResizeForm({ cluster, onClose }: { cluster: ResizedCluster; onClose: () => void }) {
  const [size, setSize] = useState<ClusterSize>(cluster.size);
  const [engines, setEngines] = useState(cluster.query_engines);
  const sizes = useClusterSizes();
  const unchanged = size === cluster.size && engines === cluster.query_engines;
  const preview = useResizePreview(cluster.deployment_id, size, engines, true);
  const resize = useResizeCluster();
  const spec = sizes.data?.find((s) => s.size === size);

  const confirm = () =>
    resize.mutate(
      { deploymentId: cluster.deployment_id, size, queryEngines: engines },
      {
        onSuccess: (result) => {
          notifySuccess(result.message);
          onClose();
        },
        onError: (error) => notifyError(error),
      },
    );

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Text fw={500} id="resize-size-label">
          Size of the query engines
        </Text>
        <SegmentedControl
          aria-labelledby="resize-size-label"
          data={CLUSTER_SIZE_NAMES.map((name) => ({ value: name, label: name }))}
          value={size}
          onChange={(value) => setSize(value)}
        />
        {spec && (
          <Text fz="sm" c="dimmed">
            {spec.instance_type}: {spec.cores} cores, {spec.memory_gib} GiB each
          </Text>
        )}
      </Stack>
      <Stack gap={4}>
        <Text fw={500} id="resize-engines-label">
          Query engines: {engines}
        </Text>
        <EnginesSlider labelId="resize-engines-label" value={engines} onChange={setEngines} />
      </Stack>
      <SimpleGrid cols={2} spacing="lg">
        <ShapeColumn
          title="Current"
          shape={shapeLabel(cluster.size, cluster.query_engines)}
          engines={cluster.query_engines}
          hourly={preview.data?.current.hourly_cost}
          runwayDays={preview.data?.runway_days_current}
        />
        <ShapeColumn
          title="Proposed"
          shape={shapeLabel(size, engines)}
          engines={engines}
          hourly={preview.data?.proposed.hourly_cost}
          runwayDays={preview.data?.runway_days_proposed}
        />
      </SimpleGrid>
      <Text fz="sm" c="dimmed">
        {cluster.status === 'ONLINE'
          ? 'The cluster stays online: engines are added or replaced one at a time, each new one before an old one leaves.'
          : 'The cluster is offline: its next start brings up the new shape.'}{' '}
        Each hour is charged for the shape that ran first in it.
      </Text>
      {unchanged && <Alert color="gray">Choose another size or number of query engines.</Alert>}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={confirm} loading={resize.isPending} disabled={unchanged}>
          Resize
        </Button>
      </Group>
    </Stack>
  );
}
