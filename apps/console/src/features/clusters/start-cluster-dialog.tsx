import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { budgetExceededMessage, type Cluster } from '@kumo/contract';
import { useStartBudget } from './api/budget';
import { useHourlyRatePreview } from './api/hourly-rate';
import { CostPreview } from './cost-preview';

interface StartClusterDialogProps {
  cluster: Pick<Cluster, 'cluster_name' | 'subscription_id' | 'subscription_name' | 'backup_region' | 'size' | 'query_engines'> | null;
  starting: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The cluster's own shape, as its price is asked for. */
const shapeOf = (cluster: NonNullable<StartClusterDialogProps['cluster']>) => ({ size: cluster.size, queryEngines: cluster.query_engines });

/**
 * Whether the budget's hard cap refuses the start, as the API would: what starting adds to the hour (its running hour
 * less the storage it already costs stopped) is more than the budget leaves. Unknown (false) while either figure is
 * loading or cannot be read.
 */
function useCapRefusesStart(cluster: StartClusterDialogProps['cluster']): boolean {
  const budget = useStartBudget(cluster?.subscription_id);
  const preview = useHourlyRatePreview(
    cluster?.subscription_id,
    Boolean(cluster?.backup_region),
    cluster ? shapeOf(cluster) : { size: 'M', queryEngines: 5 },
  );
  const headroom = budget.data?.stop_clusters_at_limit ? budget.data.start_headroom_per_hour : null;
  if (headroom === null || preview.data === undefined) return false;
  // In cents, as the API compares them.
  const adds = Math.round(preview.data.hourly_rate * 100) - Math.round(preview.data.stopped_hourly_rate * 100);
  return adds > Math.round(headroom * 100);
}

/** Starting spends money again: the dialog says what it will cost per hour, and whether the budget allows it, before it happens. */
export function StartClusterDialog({ cluster, starting, onConfirm, onClose }: StartClusterDialogProps) {
  const refused = useCapRefusesStart(cluster);
  return (
    <Modal opened={!!cluster} onClose={onClose} title="Start cluster" centered size="md">
      {cluster && (
        <Stack gap="md">
          <Text>
            Start <strong>{cluster.cluster_name}</strong>? Compute charges resume once its nodes run.
          </Text>
          <CostPreview subscriptionId={cluster.subscription_id} dr={Boolean(cluster.backup_region)} shape={shapeOf(cluster)} />
          {refused && (
            <Alert color="red" data-testid="budget-exceeded">
              {budgetExceededMessage(cluster.subscription_name)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="teal" onClick={onConfirm} loading={starting} disabled={refused} data-autofocus>
              Start
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
